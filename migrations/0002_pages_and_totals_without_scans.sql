-- Pages and totals without scans (measured at 1M venues, see docs/benchmarks.md).
--
-- * Ranks: each venue's 1-based position among the venues of its country, of its state and of
--   its city, and each city's among the cities of its country and state, all in `pos` order.
--   A page deep in one country is then an index seek (`country_rank > offset`) reading 30 rows,
--   not an OFFSET that reads every row before it.
-- * Counts: totals for whole countries, states and cities, and for one-word name prefixes that
--   match many rows, are stored by the import, so a broad search does not count its matches.
-- * FTS prefix indexes for 1-6 characters: a prefix query reads one doclist instead of merging
--   every term that starts with it.
-- * One city search index, cities_fts, with one document per city (rowid = pos), so matches
--   stream in the contract's order without DISTINCT or sorting. Column `words` holds the words
--   of all of the city's names (each query word may match any of them); column `starts` holds
--   each name as one token, words joined by `_`, so "a name equals the query" is the token
--   `"new_york"` and "a name starts with it" the prefix `"new_york"*`. Every part of a city
--   search is then one FTS query (detail = 'column' keeps the column of each match).
-- * Filter tokens: each document also holds `_c_<country>`, `_s_<country>_<admin1>`,
--   `_a_<admin1>` and, for venues, `_t_<city pos>`. A search by name and filters is one FTS
--   intersection whatever the sizes of the two sides, and a filter without a stored rank (a
--   state by name, a city by name) pages through the FTS list of its tokens. Normalized words
--   never contain `_`, so no query word can match a filter token.

ALTER TABLE venues ADD COLUMN country_rank INTEGER;
ALTER TABLE venues ADD COLUMN state_rank INTEGER;
ALTER TABLE venues ADD COLUMN city_rank INTEGER;
DROP INDEX venues_by_city;
DROP INDEX venues_by_country;
DROP INDEX venues_by_state;
CREATE INDEX venues_by_city ON venues (city_pos, city_rank);
CREATE INDEX venues_by_country ON venues (country_code, country_rank);
CREATE INDEX venues_by_state ON venues (country_code, admin1_code, state_rank);

ALTER TABLE cities ADD COLUMN country_rank INTEGER;
ALTER TABLE cities ADD COLUMN state_rank INTEGER;
ALTER TABLE cities ADD COLUMN venue_count INTEGER NOT NULL DEFAULT 0;
DROP INDEX cities_by_country;
DROP INDEX cities_by_state;
CREATE INDEX cities_by_country ON cities (country_code, country_rank);
CREATE INDEX cities_by_state ON cities (country_code, admin1_code, state_rank);

CREATE INDEX admin1_by_code ON admin1 (code);

-- Cities and venues per country (admin1_code '') and per state (country, admin-1 code).
CREATE TABLE region_counts (
  country_code TEXT NOT NULL,
  admin1_code TEXT NOT NULL,
  cities INTEGER NOT NULL,
  venues INTEGER NOT NULL,
  PRIMARY KEY (country_code, admin1_code)
) WITHOUT ROWID;
CREATE INDEX region_counts_by_admin1 ON region_counts (admin1_code);

-- How many venues (kind 'venue') or cities (kind 'city') a one-word name query matches, in all
-- (scope '') or in one country ('c:US') or state ('s:US:CA'), for the prefixes that match many
-- there; any other prefix matches few, and is counted by FTS.
CREATE TABLE name_prefix_counts (
  kind TEXT NOT NULL,
  scope TEXT NOT NULL,
  prefix TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (kind, scope, prefix)
) WITHOUT ROWID;

DROP TABLE venues_fts;
CREATE VIRTUAL TABLE venues_fts USING fts5 (
  name,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2 3 4 5 6',
  tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
);

DROP TABLE city_names_fts;
CREATE VIRTUAL TABLE cities_fts USING fts5 (
  words,
  starts,
  filters,
  content = '',
  detail = 'column',
  columnsize = 0,
  prefix = '1 2 3 4 5 6',
  tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
);

-- Any data imported under the old schema lacks ranks and counts: make the next import run.
DELETE FROM meta WHERE key = 'data_version';
