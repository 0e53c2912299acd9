-- Numbers that a change of the data changes only near it (docs/deploy.md#a-refresh-that-writes-what-changed,
-- src/data-contract/blocks.ts): a refresh that adds a city's venues then differs from the data
-- served in that city's rows and a few totals, not in every row after it.
-- * venues.pos is the city's pos × 2^16 plus the venue's place in its city (cities.venue_first is
--   the city's pos × 2^16); the pages of a country or a state seek by venue_blocks and the venues'
--   indexes by pos, instead of the dense ranks country_rank and state_rank.
-- * cell_rank numbers a record within its cell of grid level 7; cell_blocks holds the records of
--   the earlier cells of that level.
-- Nothing reads the tables until the next import fills them (it runs because the data version changes).
DROP INDEX venues_by_country_rank;
DROP INDEX venues_by_state_rank;
ALTER TABLE venues DROP COLUMN country_rank;
ALTER TABLE venues DROP COLUMN state_rank;
CREATE INDEX venues_by_country ON venues (country_code, pos);
CREATE INDEX venues_by_state ON venues (country_code, admin1_code, pos);

-- The venues of a scope ('' every venue, 'DE' a country, 'DE.16' a state) in the cities before
-- block `block` (cities pos / 64): a row for every block that holds some. Every venue's scope has
-- one more row for the venues without a city (block -1, `first` the pos of the first of them).
CREATE TABLE venue_blocks (
  scope TEXT NOT NULL,
  before INTEGER NOT NULL,
  block INTEGER NOT NULL,
  first INTEGER,
  PRIMARY KEY (scope, before)
) WITHOUT ROWID;

-- The records ('cities', 'venues') in the cells of grid level 7 before cell `block`.
CREATE TABLE cell_blocks (
  records TEXT NOT NULL,
  block INTEGER NOT NULL,
  before INTEGER NOT NULL,
  PRIMARY KEY (records, block)
) WITHOUT ROWID;

DELETE FROM meta WHERE key = 'data_version';
