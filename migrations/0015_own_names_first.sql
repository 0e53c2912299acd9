-- The first result is the one a person means (docs/api.md#order): a record found by one of its own
-- names before one found only by another, unless that one is far larger.
-- * name_tiers and name_anchors count and anchor a broad word's matches per class and name tier
--   (tier 0-2: found by an own name, the name is the word, starts with it, another word does;
--   3-5: found only by another name, the same), per language where its own names make them
--   differ (lang: 'de', …), else for every language (lang '').
-- * cities_by_population finds the last city of at least a population: the far larger records.
-- Nothing reads the tables until the next import fills them (it runs because the data version changes).
DROP TABLE name_tiers;
DROP TABLE name_anchors;
CREATE TABLE name_tiers (
  kind TEXT NOT NULL,
  prefix TEXT NOT NULL,
  lang TEXT NOT NULL,
  tier0 INTEGER NOT NULL,
  tier1 INTEGER NOT NULL,
  tier2 INTEGER NOT NULL,
  tier3 INTEGER NOT NULL,
  tier4 INTEGER NOT NULL,
  tier5 INTEGER NOT NULL,
  PRIMARY KEY (kind, prefix, lang)
) WITHOUT ROWID;
CREATE TABLE name_anchors (
  kind TEXT NOT NULL,
  prefix TEXT NOT NULL,
  lang TEXT NOT NULL,
  tier INTEGER NOT NULL,
  k INTEGER NOT NULL,           -- the anchor is the pos of the tier's (k × every)-th match
  pos INTEGER NOT NULL,
  PRIMARY KEY (kind, prefix, lang, tier, k)
) WITHOUT ROWID;
CREATE INDEX name_anchors_by_pos ON name_anchors (kind, prefix, lang, tier, pos);
CREATE INDEX cities_by_population ON cities (population);

DELETE FROM meta WHERE key = 'data_version';
