-- Words of one name (docs/api.md#matching): a record matches a text when ONE of its names holds
-- every word, not when its names together do ("buena new" is not San Francisco, though it is both
-- "Yerba Buena" and "New Albion"). The search documents hold all of a record's words at once, so
-- a match there is checked against the words of each name apart (src/match/one-name.ts): a JSON
-- array of each name's words (every way of writing them), for the records whose names do not all
-- hold the same words; a record without a row here has its words from one name. The cities'
-- documents also hold their own names as tokens of their own (`__n_…`: src/data-contract/tokens.ts).
-- Nothing reads the tables until the next import fills them (it runs because the data version changes).
CREATE TABLE city_name_words (
  pos INTEGER PRIMARY KEY,       -- cities.pos
  names TEXT NOT NULL
);

CREATE TABLE venue_name_words (
  pos INTEGER PRIMARY KEY,       -- venues.pos
  names TEXT NOT NULL
);

DELETE FROM meta WHERE key = 'data_version';
