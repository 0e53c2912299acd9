/**
 * The search indexes' tokenizer and the normalizer agree (issue: a word that FTS5 re-split became a
 * phrase that the indexes reject): every code point, U+0000 to U+10FFFF, goes through normalize()
 * and words() here and through an FTS5 table made like the served ones (its tokenizer read from the
 * schema) inside workerd's SQLite; the tokens must be the same. Then random strings, and the query
 * side: a word quoted as the queries quote it finds its document.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compareCodePoints, normalize, words } from "../../src/data-contract/normalize.ts";
import { phrase } from "../../src/match/fts.ts";
import { call, getJson } from "./helpers.ts";

/** The served venues_fts's definition, with another name: the same tokenizer and options. */
async function scratchTable(): Promise<void> {
  const row = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'venues_fts'").first<{ sql: string }>();
  if (row === null) throw new Error("no venues_fts in the schema");
  const ddl = row.sql.replace(/^CREATE VIRTUAL TABLE "?venues_fts"?/, "CREATE VIRTUAL TABLE IF NOT EXISTS tok");
  expect(ddl).toMatch(/tokenize\s*=\s*"ascii tokenchars '_'"/);
  await env.DB.batch([
    env.DB.prepare(ddl),
    env.DB.prepare("CREATE VIRTUAL TABLE IF NOT EXISTS tok_terms USING fts5vocab(tok, 'instance')"),
    env.DB.prepare("CREATE TABLE IF NOT EXISTS tok_expected (doc INTEGER PRIMARY KEY, tokens TEXT NOT NULL)"),
  ]);
}

/** Sorted, distinct tokens as one string: how they are compared on both sides. */
const tokenList = (list: readonly string[]) => [...new Set(list)].sort(compareCodePoints).join(" ");

/**
 * Indexes texts (rowid = index in `texts` + offset) and returns the documents whose FTS5 tokens
 * differ from words(text), with both lists. The comparison runs in SQL: only mismatches come back.
 */
async function mismatches(
  texts: readonly string[],
  offset = 0,
  table = "tok",
): Promise<{ doc: number; fts: string; ours: string }[]> {
  const docs = Object.fromEntries(texts.map((t, i) => [String(i + offset), t]));
  const expected = Object.fromEntries(texts.map((t, i) => [String(i + offset), tokenList(words(t))]));
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`),
    env.DB.prepare("DELETE FROM tok_expected"),
    env.DB.prepare(`INSERT INTO ${table} (rowid, doc) SELECT CAST(key AS INTEGER), value FROM json_each(?)`).bind(
      JSON.stringify(docs),
    ),
    env.DB.prepare("INSERT INTO tok_expected (doc, tokens) SELECT CAST(key AS INTEGER), value FROM json_each(?)").bind(
      JSON.stringify(expected),
    ),
  ]);
  // Documents whose tokens differ, and documents that should have tokens but have none.
  const { results } = await env.DB.prepare(
    `SELECT v.doc, v.tokens AS fts, e.tokens AS ours
     FROM (SELECT doc, group_concat(term, ' ' ORDER BY term) AS tokens FROM ${table}_terms GROUP BY doc) v
     CROSS JOIN tok_expected e ON e.doc = v.doc WHERE v.tokens <> e.tokens
     UNION ALL
     SELECT e.doc, '', e.tokens FROM tok_expected e WHERE e.tokens <> '' AND e.doc NOT IN (SELECT doc FROM ${table}_terms)`,
  ).all<{ doc: number; fts: string; ours: string }>();
  return results;
}

beforeAll(scratchTable);

describe("FTS5 tokens and normalize()", () => {
  it("the check does see a disagreement (unicode61 splits words that normalize() keeps)", async () => {
    await env.DB.batch([
      env.DB.prepare(
        "CREATE VIRTUAL TABLE IF NOT EXISTS tok61 USING fts5(doc, content = '', tokenize = 'unicode61 remove_diacritics 2')",
      ),
      env.DB.prepare("CREATE VIRTUAL TABLE IF NOT EXISTS tok61_terms USING fts5vocab(tok61, 'instance')"),
    ]);
    const texts = [normalize("a\u19b7b"), normalize("paris\u1cf2"), normalize("plain words")];
    expect(words(texts[0] ?? "")).toEqual(["a\u19b7b"]);
    // The old tokenizer splits the first two into two tokens each; the served one does not.
    expect(await mismatches(texts, 0, "tok61")).toEqual([
      { doc: 0, fts: "a b", ours: "a\u19b7b" },
      { doc: 1, fts: "paris", ours: "paris\u1cf2" },
    ]);
    expect(await mismatches(texts)).toEqual([]);
  });

  it("agree on every code point, inside a word, alone, and doubled", async () => {
    const BATCH = 0x8000;
    const bad: { doc: number; fts: string; ours: string }[] = [];
    for (let start = 0; start <= 0x10ffff; start += BATCH) {
      const texts: string[] = [];
      for (let cp = start; cp < Math.min(start + BATCH, 0x110000); cp++) {
        // Lone surrogates are not text (a request's value never holds one: decoding rejects them).
        const ch = cp >= 0xd800 && cp <= 0xdfff ? "" : String.fromCodePoint(cp);
        texts.push(normalize(`a${ch}b`), normalize(`${ch} x${ch}${ch}`));
      }
      bad.push(...(await mismatches(texts, start * 2)));
      if (bad.length > 20) break;
    }
    expect(bad.map((m) => ({ ...m, codePoint: (m.doc >> 1).toString(16) }))).toEqual([]);
  }, 120_000);

  it("agree on random text, which normalize() leaves unchanged when normalized again", async () => {
    const samples = fc.sample(fc.string({ unit: "binary", maxLength: 30 }), { numRuns: 20_000, seed: 42 });
    for (const text of samples) expect(normalize(normalize(text))).toBe(normalize(text));
    expect(await mismatches(samples.map(normalize))).toEqual([]);
  });

  it("a query word quoted as the queries quote it is one token that finds its document", async () => {
    const cps = [0x19b7, 0x19c0, 0x1cf2, 0x1cf3, 0xe9, 0x4e2d, 0x1f3b8, 0x10ffff, 0x5f, 0x2b, 0xff21];
    for (let cp = 0x80; cp < 0x30000; cp += 97) cps.push(cp);
    const texts = cps.map((cp) => normalize(`a${String.fromCodePoint(cp)}b`));
    expect(await mismatches(texts)).toEqual([]);
    const statements = texts.flatMap((text, doc) =>
      words(text).map((w) => ({
        doc,
        statement: env.DB.prepare("SELECT rowid FROM tok WHERE tok MATCH ?").bind(phrase(w)),
      })),
    );
    const results = await env.DB.batch<{ rowid: number }>(statements.map((s) => s.statement));
    statements.forEach((s, i) =>
      expect(
        results[i]?.results.map((r) => r.rowid),
        texts[s.doc],
      ).toContain(s.doc),
    );
  }, 60_000); // ~2,000 statements: a few seconds, more on a busy machine
});

describe("the worker on the words that used to split", () => {
  it("answers them as words: no 503, no false exact match, a typo when it is one", async () => {
    for (const name of ["a%E1%A6%B7b", "paris%E1%A6%B7", "%E1%B3%B2x", "x%E1%A7%80y%20z"]) {
      for (const resource of ["venues", "cities"]) {
        const res = await call(`/1.0/search/${resource}?name=${name}&typos=0`, {
          headers: { Accept: "application/json" },
        });
        expect(res.status, `${resource} ${name}`).toBe(404);
      }
    }
    // "parisᦷ" is Paris with one letter too many: a fuzzy match, not an exact one.
    const paris = await getJson("/1.0/search/cities?name=paris%E1%A6%B7");
    expect(paris.status).toBe(200);
    expect(paris.headers.get("X-Match")).toBe("fuzzy");
    expect(((await paris.json()) as { cities: { name: string }[] }).cities[0]?.name).toBe("Paris");
  });
});
