-- Names of cities, states and countries in the languages setlist.fm localizes (es, fr, de, pt,
-- tr, it, pl; English is the names themselves). Searches return coalesce(localized, English)
-- field by field. key: a city's geonameid (kind 'city'), COUNTRY.ADMIN1 ('admin1'), or the
-- country code ('country').
CREATE TABLE localized_names (
  lang TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (lang, kind, key)
) WITHOUT ROWID;

-- Make the next import run: it fills this table (and adds the localized city names to search).
DELETE FROM meta WHERE key = 'data_version';
