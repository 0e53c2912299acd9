-- A place in the text (docs/api.md#a-place-in-the-text): each way a person writes a country or a
-- region (admin-1) — its codes (ISO 3166-1 alpha-2 and alpha-3, the admin-1 code, a postal
-- abbreviation), its names in the served languages, common short forms (UK, USA) — with the place
-- it stands for. The worker reads the end of a name against it; a city is read from the cities'
-- own name tokens (cities_fts). A form is normalized as every name (src/data-contract/spellings.ts).
-- Nothing reads the table until the next import fills it (it runs because the data version changes).
CREATE TABLE place_names (
  form TEXT NOT NULL,
  country_code TEXT NOT NULL,
  admin1_code TEXT NOT NULL,     -- '' for a country
  -- The pos of the place's largest city (the place's rank in the cities' default order): of the
  -- places one form stands for, the bigger is read first.
  rank INTEGER NOT NULL,
  PRIMARY KEY (form, country_code, admin1_code)
) WITHOUT ROWID;

-- The words of the place names in the typo vocabulary, so that a typo in the place is forgiven too
-- (`Paris, Texsa`): how many place names hold each word (0 for the words of names alone).
ALTER TABLE words ADD COLUMN places INTEGER NOT NULL DEFAULT 0;

DELETE FROM meta WHERE key = 'data_version';
