-- Words of one name, indexed (docs/architecture.md#search-indexes): each name of a record whose
-- names hold different words is one document of its own, at rowid pos * 4096 + its number among
-- them, with a token all of them hold (src/data-contract/name-sets.ts). "One of its names holds
-- every word" is then FTS5 lookups in the record's rowid range, which D1 counts as no row read,
-- where reading each name's JSON from city_name_words and venue_name_words read a row per name
-- (a city has up to 200): the bound on what a request reads (docs/api.md#what-one-request-may-cost)
-- holds by construction. Those tables go.
-- Nothing reads them until the next import fills them (it runs because the data version changes).
CREATE VIRTUAL TABLE city_name_words_fts USING fts5 (
  doc,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2 3 4 5 6',
  tokenize = "ascii tokenchars '_'"
);

CREATE VIRTUAL TABLE venue_name_words_fts USING fts5 (
  doc,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2 3 4 5 6',
  tokenize = "ascii tokenchars '_'"
);

DROP TABLE city_name_words;
DROP TABLE venue_name_words;

DELETE FROM meta WHERE key = 'data_version';
