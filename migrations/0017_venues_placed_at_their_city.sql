-- A venue without a point of its own is placed at its city's (docs/api.md#venues-at-their-own-place):
-- the import writes that point into lat and lng, and city_point = 1 says it is the city's, so that
-- a search in an area reads the venue's row, or the venues_by_cell index, and not its city's row
-- once for each use of the point (setlist.fm's own venue rows have no points: a circle's page read
-- 2.5 times the rows). An answer shows a venue's own coordinates alone (src/data-contract/venue-points.ts).
-- Nothing reads the column until the next import fills it (it runs because the data version changes).
ALTER TABLE venues ADD COLUMN city_point INTEGER;
