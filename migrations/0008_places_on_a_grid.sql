-- Places on a grid (docs/architecture.md#places-on-a-grid): searches near a point and inside a box
-- count the cells of a grid instead of the Z-order curve of 0006 — every record by the ranks of
-- their cells, each broad name prefix and each kind of venue from stored counts — so that a
-- circle's or a box's total costs about its edge, not its inside. Nothing reads the new table until the next import fills it (it
-- runs because the data version changes).

DROP INDEX IF EXISTS cities_by_z;
ALTER TABLE cities DROP COLUMN z;
ALTER TABLE cities DROP COLUMN z_cities;
ALTER TABLE cities DROP COLUMN z_venues;

-- Each record's place as its cell at the grid's finest level (a venue's own point, else its city's;
-- NULL without either), and its number in the order of those cells (cell_rank, from 1): the records
-- of any cell are a range of cells, counted by two seeks (the rank before its end, less the rank
-- before its start) and read from the index with their points (and a venue's city, for its point
-- when it has none of its own).
ALTER TABLE cities ADD COLUMN cell INTEGER;
ALTER TABLE cities ADD COLUMN cell_rank INTEGER;
CREATE INDEX cities_by_cell ON cities (cell, cell_rank, lat, lng);
ALTER TABLE venues ADD COLUMN cell INTEGER;
ALTER TABLE venues ADD COLUMN cell_rank INTEGER;
CREATE INDEX venues_by_cell ON venues (cell, cell_rank, lat, lng, city_pos);

-- The records of a term in a cell of the grid (src/format/grid.ts), where they are at least the
-- import's minimum: a cell that is not here holds fewer. Kids are the 16 cells two levels down.
CREATE TABLE cell_counts (
  kind TEXT NOT NULL,            -- 'venue' or 'city'
  term TEXT NOT NULL,            -- a name prefix, or 'kind:<kind>'
  level INTEGER NOT NULL,        -- 0 (the world), 2, 4, … 16
  cell INTEGER NOT NULL,         -- Morton code at the level
  n INTEGER NOT NULL,            -- the term's records in the cell
  rest INTEGER NOT NULL,         -- of those, the ones in kids that are not stored
  rest_kids INTEGER NOT NULL,    -- bit k set: kid 16 × cell + k holds some of the rest
  south REAL NOT NULL,           -- the box around the records, degrees
  north REAL NOT NULL,
  west REAL NOT NULL,
  east REAL NOT NULL,
  reach REAL NOT NULL,           -- km from the box's centre to its farthest point
  PRIMARY KEY (kind, term, level, cell)
) WITHOUT ROWID;

DELETE FROM meta WHERE key = 'data_version';
