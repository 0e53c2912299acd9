/**
 * Both sides read words alike (src/data-contract/spellings.ts, docs/api.md#spellings), checked
 * against FTS5 inside workerd: random names are indexed as the import indexes them (nameIndexText,
 * in a table made like the served venues_fts), and each is searched as a person may write it —
 * St. or Saint, Ft or Fort, & or and, ae for ä, o for ø — with the worker's own query text
 * (normalize(), nameTierText()): it must be found, and in the first tier (the name as typed).
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import { nameIndexText } from "../../src/data-contract/name-index.ts";
import { nameTierText } from "../../src/match/fts.ts";

beforeAll(async () => {
  const row = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'venues_fts'").first<{ sql: string }>();
  const ddl = (row?.sql ?? "").replace(
    /^CREATE VIRTUAL TABLE "?venues_fts"?/,
    "CREATE VIRTUAL TABLE IF NOT EXISTS spell",
  );
  await env.DB.prepare(ddl).run();
});

/** A word of a name, and how a person may write it instead. */
const WORDS: [written: string, typed: string[]][] = [
  ["St.", ["Saint", "St", "st."]],
  ["Saint", ["St.", "St", "saint"]],
  ["Ste", ["Sainte", "Ste."]],
  ["Sainte", ["Ste", "Ste."]],
  ["Ft.", ["Fort", "Ft"]],
  ["Fort", ["Ft.", "Ft"]],
  ["Mt", ["Mount", "Mt."]],
  ["Mount", ["Mt", "Mt."]],
  ["&", ["and", "&"]],
  ["and", ["&", "and"]],
  ["München", ["Muenchen", "Munchen", "münchen"]],
  ["Nürnberger", ["Nuernberger", "Nurnberger"]],
  ["Köln", ["Koeln", "Koln"]],
  ["Straße", ["Strasse", "STRASSE"]],
  ["Øya", ["Oya", "oya"]],
  ["Łódź", ["Lodz"]],
  ["Ærø", ["Aero"]],
  ["Þórsmörk", ["Thorsmork"]],
  ["Đakovo", ["Dakovo"]],
  ["Iğdır", ["Igdir"]],
  ["Hall", ["hall", "HALL"]],
  ["Louis", ["louis"]],
  ["Pleasant", ["Pleasant"]],
  ["Rock", ["rock"]],
];

/** A name of two to four words (up to three written two ways: every combination is indexed), its last one plain (an abbreviation is read only before a word), and a way of typing it. */
const named = fc
  .tuple(
    fc.array(fc.integer({ min: 0, max: WORDS.length - 1 }), { minLength: 1, maxLength: 3 }),
    fc.integer({ min: 20, max: 23 }),
  )
  .chain(([picks, last]) =>
    fc.tuple(
      fc.constant([...picks, last].map((i) => WORDS[i] ?? ["", []])),
      fc.array(fc.nat(), { minLength: picks.length + 1, maxLength: picks.length + 1 }),
    ),
  )
  .map(([words, choices]) => ({
    name: words.map(([written]) => written).join(" "),
    typed: words.map(([, typed], i) => typed[(choices[i] ?? 0) % typed.length] ?? "").join(" "),
  }));

describe("names written two ways, in FTS5", () => {
  it("a name is found as a person writes it, in the first tier", async () => {
    const cases = fc.sample(named, { numRuns: 400, seed: 10_9 });
    const docs = cases.map(({ name }) => {
      const index = nameIndexText([name]);
      return `${index.words} ${index.tokens} ${index.shared}`;
    });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO spell (spell) VALUES ('delete-all')"),
      env.DB.prepare("INSERT INTO spell (rowid, doc) SELECT CAST(key AS INTEGER) + 1, value FROM json_each(?)").bind(
        JSON.stringify(docs),
      ),
    ]);
    for (const [i, { name, typed }] of cases.entries()) {
      const text = nameTierText(normalize(typed));
      if (text === null) continue; // `&` alone: no words to search
      const found = async (match: string) =>
        (await env.DB.prepare("SELECT 1 FROM spell WHERE spell MATCH ? AND rowid = ?")
          .bind(match, i + 1)
          .first()) !== null;
      expect(await found(text.exact), `${typed} → ${name}: the name`).toBe(true);
      expect(await found(text.words), `${typed} → ${name}: its words`).toBe(true);
    }
    // 800 lookups: seconds on a machine busy with other tests.
  }, 60_000);
});
