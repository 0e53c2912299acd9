-- The counts of the kids that cell_counts does not store (docs/architecture.md#places-on-a-grid):
-- a cell on an area's edge told only which of its kids held some of its other records, so every
-- such kid that touched the area was read from the search index, even one wholly inside it. Each
-- kid's count (under the import's minimum) lets a kid wholly inside count as its number, and only
-- the kids that the edge crosses be read. The next import fills it (the data version changes).

ALTER TABLE cell_counts DROP COLUMN rest_kids;
-- The kids that hold some of the rest, as a JSON object of k to count (kid 16 × cell + k), e.g.
-- {"3":4,"12":21}; NULL when rest is 0.
ALTER TABLE cell_counts ADD COLUMN kid_rest TEXT;

DELETE FROM meta WHERE key = 'data_version';
