-- Venue & City Search schema. Rows are written only by scripts/import.ts.
--
-- Every *_norm column holds normalize() of its source (src/format/normalize.ts): NFKD, diacritics
-- removed, case-folded, punctuation as spaces. The same function normalizes query values.
--
-- `pos` columns are each row's rank in the contract's default order, assigned at import:
-- cities by population (largest first) then id, venues by normalized name then id. Ordering
-- by pos is therefore ordering as the contract says, and every index on these tables (which
-- ends in the rowid = pos) yields rows already in that order.

CREATE TABLE countries (
  code TEXT PRIMARY KEY,        -- ISO 3166-1 alpha-2, upper case
  name TEXT NOT NULL,           -- English name as GeoNames spells it
  name_norm TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX countries_by_name ON countries (name_norm);

CREATE TABLE admin1 (
  country_code TEXT NOT NULL,
  code TEXT NOT NULL,           -- admin-1 code, upper case: CA, ENG, 16
  name TEXT NOT NULL,
  name_norm TEXT NOT NULL,
  PRIMARY KEY (country_code, code)
) WITHOUT ROWID;
CREATE INDEX admin1_by_name ON admin1 (name_norm);

CREATE TABLE cities (
  pos INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,      -- GeoNames geonameid
  name TEXT NOT NULL,
  ascii_name TEXT NOT NULL,
  name_norm TEXT NOT NULL,
  ascii_norm TEXT NOT NULL,
  admin1_code TEXT,             -- NULL when GeoNames gives none
  country_code TEXT NOT NULL,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  population INTEGER NOT NULL,
  alternate_names TEXT NOT NULL -- GeoNames' comma-separated list, as imported
);
CREATE INDEX cities_by_country ON cities (country_code);
CREATE INDEX cities_by_state ON cities (country_code, admin1_code);
CREATE INDEX cities_by_admin1 ON cities (admin1_code);
CREATE INDEX cities_by_name ON cities (name_norm);
CREATE INDEX cities_by_ascii_name ON cities (ascii_norm);

-- Each distinct normalized name of a city: its name, ASCII name and alternate names.
-- id = city pos * 1024 + ordinal, so id >> 10 is the city's pos and ids sort like cities.
CREATE TABLE city_names (
  id INTEGER PRIMARY KEY,
  norm TEXT NOT NULL
);
CREATE INDEX city_names_by_norm ON city_names (norm);

-- Word-prefix search over city_names (rowid = city_names.id). Contentless: the text lives
-- in city_names; the index is rebuilt from it by the import.
CREATE VIRTUAL TABLE city_names_fts USING fts5 (
  norm,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE venues (
  pos INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  name_norm TEXT NOT NULL,
  city_pos INTEGER,             -- cities.pos; NULL for a venue without a city
  -- Copies of the city's country and admin-1 code, so that country and state filters
  -- are one index range each instead of a join through cities.
  country_code TEXT,
  admin1_code TEXT,
  url TEXT
);
CREATE INDEX venues_by_name ON venues (name_norm);
CREATE INDEX venues_by_city ON venues (city_pos);
CREATE INDEX venues_by_country ON venues (country_code);
CREATE INDEX venues_by_state ON venues (country_code, admin1_code);
CREATE INDEX venues_by_admin1 ON venues (admin1_code);

-- Word-prefix search over venue names (rowid = venues.pos).
CREATE VIRTUAL TABLE venues_fts USING fts5 (
  name,
  content = '',
  detail = 'none',
  columnsize = 0,
  prefix = '1 2',
  tokenize = 'unicode61 remove_diacritics 2'
);

-- data_version (content hash of the import's inputs), row counts, sources, import time.
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
