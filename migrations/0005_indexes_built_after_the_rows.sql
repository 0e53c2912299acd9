-- Cities and venues with named indexes instead of UNIQUE constraints: an import builds each index
-- once its stage table holds every row (a sort, instead of one random insert per row into each
-- index, which at 10,000,000 venues took most of the import). An import names its stage indexes
-- <name>_<import id> (scripts/import/publish/local.ts); an index moves with its table when the swap renames
-- it, and is dropped with it. Nothing reads these tables until the next import fills them (it runs
-- because the data version changes).

DROP TABLE IF EXISTS venues;
DROP TABLE IF EXISTS cities;

CREATE TABLE cities (
  pos INTEGER PRIMARY KEY,
  id TEXT NOT NULL,             -- GeoNames geonameid
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
  venue_count INTEGER NOT NULL
);
CREATE UNIQUE INDEX cities_by_id ON cities (id);
CREATE UNIQUE INDEX cities_by_country_rank ON cities (country_code, country_rank);
CREATE UNIQUE INDEX cities_by_state_rank ON cities (country_code, admin1_code, state_rank);
CREATE UNIQUE INDEX cities_by_name ON cities (name_norm, pos);
CREATE UNIQUE INDEX cities_by_ascii_name ON cities (ascii_norm, pos);

CREATE TABLE venues (
  pos INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  city_pos INTEGER,             -- cities.pos; NULL for a venue without a city
  url TEXT,
  -- The city's country and admin-1 code, and the venue's rank among the venues of each.
  country_code TEXT,
  admin1_code TEXT,
  country_rank INTEGER,
  state_rank INTEGER
);
CREATE UNIQUE INDEX venues_by_id ON venues (id);
CREATE UNIQUE INDEX venues_by_country_rank ON venues (country_code, country_rank);
CREATE UNIQUE INDEX venues_by_state_rank ON venues (country_code, admin1_code, state_rank);

DELETE FROM meta WHERE key = 'data_version';
