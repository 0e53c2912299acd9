-- Cities along the Z-order curve (src/format/tokens.ts zCode), for searches near a point without other
-- filters (src/geo/circle.ts circleCells): every grid cell is a range of `z`, and the running totals in
-- `z` order (cities, and their venues, up to and including this city) count the cities and venues
-- of a whole cell in two index seeks, without reading them. The index covers what those searches
-- read. Columns are added, not the table rebuilt, so the served data stays served until the next
-- import fills them (it runs because the data version changes with the import's code).

ALTER TABLE cities ADD COLUMN z INTEGER;
ALTER TABLE cities ADD COLUMN z_cities INTEGER;
ALTER TABLE cities ADD COLUMN z_venues INTEGER;
CREATE INDEX cities_by_z ON cities (z, z_cities, z_venues, lat, lng);
