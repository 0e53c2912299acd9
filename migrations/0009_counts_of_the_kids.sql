-- The counts of the kids that cell_counts does not store (docs/architecture.md#places-on-a-grid):
-- a cell on an area's edge told only which of its kids held some of its other records, so every
-- such kid that touched the area was read from the search index, even one wholly inside it. Each
-- kid's count (under the import's minimum) lets a kid wholly inside count as its number, and only
-- the kids that the edge crosses be read. The next import fills it (the data version changes).

ALTER TABLE cell_counts DROP COLUMN rest_kids;
-- A JSON array of 16 counts, kid 16 × cell + k at index k; NULL when rest is 0.
ALTER TABLE cell_counts ADD COLUMN kid_rest TEXT;

DELETE FROM meta WHERE key = 'data_version';
