-- Which name matched (docs/api.md#suggestions): every suggestion says the name that holds the
-- typed words. For a record whose names hold different words, its names as written beside their
-- documents in city_name_words_fts / venue_name_words_fts, a JSON array in the order of their
-- numbers (src/data-contract/name-sets.ts); for a record without such documents whose words are all
-- in one name other than its first, that name alone. A suggestion's page reads its ≤ 20 rows.
-- The search documents also gain the starts that several words of a name share (`__r2_s`:
-- each typed word is its own word of the name) and a city's own names' words (`__o_york`, and in
-- a served language `__ode_york`, `__nde_munchen`): src/data-contract/tokens.ts.
-- Nothing reads the tables until the next import fills them (it runs because the data version changes).
CREATE TABLE city_name_texts (
  pos INTEGER PRIMARY KEY,       -- cities.pos
  names TEXT NOT NULL
);

CREATE TABLE venue_name_texts (
  pos INTEGER PRIMARY KEY,       -- venues.pos
  names TEXT NOT NULL
);

DELETE FROM meta WHERE key = 'data_version';
