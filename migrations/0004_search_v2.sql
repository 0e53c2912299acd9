-- Search v2: tokens that agree with the normalizer, venue order by city size, typo tolerance, geo
-- search, and tables an import can stage and swap in. Replaces every table of 0001-0003 but meta;
-- the next import fills them (it runs because the data version changes).
--
-- * Every *_norm column holds normalize() (src/format/normalize.ts) of its source.
-- * `pos` is each row's place in the contract's order: cities by population (largest first) then
--   geonameid; venues by their city's pos (so by city population; venues without a city last),
--   then normalized name, then id. The venues of a city are therefore one pos range
--   (cities.venue_first, venue_count), and the rank columns number a row within its country and
--   state in pos order, so any page of a region is an index seek.
-- * Indexes are UNIQUE constraints, never CREATE INDEX: an import builds stage_* copies of these
--   tables and swaps them in with ALTER TABLE ... RENAME, and constraint indexes are renamed with
--   their table (scripts/import/publish/local.ts).
-- * The FTS5 tables tokenize with `ascii tokenchars '_'`: normalized text is words of letters and
--   digits separated by single spaces, and this tokenizer splits it exactly there (any non-ASCII
--   character is part of a word; unicode61 re-split some words with its Unicode 6.1 tables). The
--   special tokens (`_name`, `__c_us`, `__g8_1234` ...) are defined in src/format/tokens.ts.
-- * No statistics are kept (no ANALYZE; the old ones are dropped): the statements are written so
--   their plans do not depend on them, and test/worker/plans.test.ts checks the plans without them.

DROP TABLE IF EXISTS venues_fts;
DROP TABLE IF EXISTS cities_fts;
DROP TABLE IF EXISTS city_names_fts;
DROP TABLE IF EXISTS city_names;
DROP TABLE IF EXISTS venues;
DROP TABLE IF EXISTS cities;
DROP TABLE IF EXISTS admin1;
DROP TABLE IF EXISTS countries;
DROP TABLE IF EXISTS region_counts;
DROP TABLE IF EXISTS name_prefix_counts;
DROP TABLE IF EXISTS localized_names;
DROP TABLE IF EXISTS name_tiers;
DROP TABLE IF EXISTS name_anchors;
DROP TABLE IF EXISTS sqlite_stat1;
DROP TABLE IF EXISTS sqlite_stat4;

CREATE TABLE countries (
  code TEXT PRIMARY KEY,        -- ISO 3166-1 alpha-2, upper case
  name TEXT NOT NULL,           -- English name as GeoNames spells it
  name_norm TEXT NOT NULL,
  UNIQUE (name_norm, code)
) WITHOUT ROWID;

CREATE TABLE admin1 (
  country_code TEXT NOT NULL,
  code TEXT NOT NULL,           -- admin-1 code, upper case: CA, ENG, 16
  name TEXT NOT NULL,
  name_norm TEXT NOT NULL,
  PRIMARY KEY (country_code, code),
  UNIQUE (name_norm, country_code, code)
) WITHOUT ROWID;

CREATE TABLE cities (
  pos INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,      -- GeoNames geonameid
  name TEXT NOT NULL,
  name_norm TEXT NOT NULL,
  ascii_norm TEXT,              -- normalized ASCII name, NULL when it equals name_norm
  country_code TEXT NOT NULL,
  admin1_code TEXT,             -- NULL when GeoNames gives none
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  population INTEGER NOT NULL,
  country_rank INTEGER NOT NULL,
  state_rank INTEGER,           -- NULL without an admin-1 code
  venue_first INTEGER,          -- pos of the city's first venue; NULL without venues
  venue_count INTEGER NOT NULL,
  UNIQUE (country_code, country_rank),
  UNIQUE (country_code, admin1_code, state_rank),
  UNIQUE (name_norm, pos),
  UNIQUE (ascii_norm, pos)
);

CREATE TABLE venues (
  pos INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  city_pos INTEGER,             -- cities.pos; NULL for a venue without a city
  url TEXT,
  -- The city's country and admin-1 code, and the venue's rank among the venues of each.
  country_code TEXT,
  admin1_code TEXT,
  country_rank INTEGER,
  state_rank INTEGER,
  UNIQUE (country_code, country_rank),
  UNIQUE (country_code, admin1_code, state_rank)
);

-- One document per venue (rowid = pos): the words of its name, its name token, and the filter
-- and geo tokens of its city.
CREATE VIRTUAL TABLE venues_fts USING fts5 (
  doc,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2 3 4 5 6',
  tokenize = "ascii tokenchars '_'"
);

-- One document per city (rowid = pos): the words of all its names (name, ASCII name, GeoNames
-- alternate names, localized names), each name as a name token, and its filter and geo tokens.
CREATE VIRTUAL TABLE cities_fts USING fts5 (
  doc,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2 3 4 5 6',
  tokenize = "ascii tokenchars '_'"
);

-- The vocabulary for typo tolerance: every distinct normalized word of 3 or more letters, with
-- the number of venues and of cities whose names hold it.
CREATE TABLE words (
  id INTEGER PRIMARY KEY,
  word TEXT NOT NULL,
  venues INTEGER NOT NULL,
  cities INTEGER NOT NULL
);

-- Each word's deletion neighbourhood (rowid = words.id; src/format/typo-keys.ts indexDeletes): a query
-- word's neighbourhood finds the words within its allowed edits in one FTS lookup.
CREATE VIRTUAL TABLE words_fts USING fts5 (
  keys,
  content = '',
  detail = 'none',
  columnsize = 0,
  tokenize = "ascii tokenchars '_'"
);

-- Cities and venues per country (admin1_code '') and per state.
CREATE TABLE region_counts (
  country_code TEXT NOT NULL,
  admin1_code TEXT NOT NULL,
  cities INTEGER NOT NULL,
  venues INTEGER NOT NULL,
  PRIMARY KEY (country_code, admin1_code),
  UNIQUE (admin1_code, country_code)
) WITHOUT ROWID;

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

-- Deep pages of a broad one-word name search without filters: for the prefixes of
-- name_prefix_counts in scope '', the size of each name tier (0: the name is the word, 1: it
-- starts with it, 2: another word does) and the pos of every `every`-th match of each tier
-- (meta name_anchor_every), so a page starts after an anchor instead of reading every match
-- before it.
CREATE TABLE name_tiers (
  kind TEXT NOT NULL,
  prefix TEXT NOT NULL,
  tier0 INTEGER NOT NULL,
  tier1 INTEGER NOT NULL,
  tier2 INTEGER NOT NULL,
  PRIMARY KEY (kind, prefix)
) WITHOUT ROWID;
CREATE TABLE name_anchors (
  kind TEXT NOT NULL,
  prefix TEXT NOT NULL,
  tier INTEGER NOT NULL,
  k INTEGER NOT NULL,           -- the anchor is the pos of the tier's (k × every)-th match
  pos INTEGER NOT NULL,
  PRIMARY KEY (kind, prefix, tier, k)
) WITHOUT ROWID;

-- Names of cities, states and countries in the languages setlist.fm localizes (es, fr, de, pt,
-- tr, it, pl). key: a city's geonameid (kind 'city'), COUNTRY.ADMIN1 ('admin1'), or the country
-- code ('country').
CREATE TABLE localized_names (
  lang TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (lang, kind, key)
) WITHOUT ROWID;

DELETE FROM meta WHERE key = 'data_version';
