-- Long words as fast as short ones (docs/api.md#long-words): a word typed longer than FTS5's prefix
-- index (6 characters) is asked as the words of the vocabulary that start with it
-- (src/match/long-words.ts), found by this index. The rows stay: no new import is needed.
CREATE INDEX words_by_word ON words (word);
