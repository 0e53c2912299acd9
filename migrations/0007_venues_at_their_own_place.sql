-- Venues at their own place (docs/api.md#venues-at-their-own-place): a venue's own coordinates,
-- when its source has them (MusicBrainz, OpenStreetMap, files with lat/long), and its kind.
ALTER TABLE venues ADD COLUMN lat REAL;
ALTER TABLE venues ADD COLUMN lng REAL;
ALTER TABLE venues ADD COLUMN kind TEXT NOT NULL DEFAULT 'venue';
