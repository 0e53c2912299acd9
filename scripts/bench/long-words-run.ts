/**
 * `npm run bench -- --long-words`: a word longer than FTS5's prefix index against its first 6
 * letters (src/match/long-words.ts, docs/benchmarks.md "Long words"), on 1,000,000 venues (`--venues
 * N`: N; the state of `--classes` when it holds that many). Per length from 7 to 12 letters, the
 * words of that length that the most venues hold; per word, the venues search, the venues search
 * near a point, the suggestions and the suggestions with a focus; per request, the raw SQL time of
 * its miss (D1's page cache, the median of 60 runs: raw-sql.ts, its long words bound as the
 * worker's isolate binds them once it has met them) for the word and for its first 6 letters, and
 * the ratio.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { log, machine, timedImport, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import type { QueryClass } from "./query-classes.ts";
import { rawSqlMs } from "./raw-sql.ts";

const LENGTHS = [7, 8, 9, 10, 11, 12];
const WORDS_PER_LENGTH = 3;
/** The most a long word may cost against its first 6 letters (issue 63). */
const MOST_RATIO = 2;

const KINDS = [
  { label: "search", suggest: false, query: (w: string) => `name=${w}` },
  { label: "search near London", suggest: false, query: (w: string) => `name=${w}&lat=51.5074&long=-0.1278&radius=50` },
  { label: "suggest", suggest: true, query: (w: string) => `name=${w}` },
  { label: "suggest, focus London", suggest: true, query: (w: string) => `name=${w}&lat=51.5074&long=-0.1278` },
] as const;

/** The venues state: --classes' when it holds `venues` venues and this migration's index, else imported anew. */
async function venuesState(venues: number): Promise<string> {
  const state = join(TMP, "classes-state");
  const path = localD1File(d1Database().id, state);
  if (existsSync(path)) {
    const db = new Database(path, { readonly: true });
    const count = db.prepare("SELECT count(*) FROM venues").pluck().get() as number;
    const indexed = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'words_by_word'").get() !== undefined;
    db.close();
    if (count === venues && indexed) {
      log(`reusing bench/tmp/classes-state (${venues.toLocaleString("en-US")} venues)`);
      return path;
    }
  }
  log(`importing ${venues.toLocaleString("en-US")} venues into bench/tmp/classes-state`);
  await timedImport(venues, ["--persist-to", state]);
  return path;
}

const klass = (suggest: boolean, query: string): QueryClass => ({
  id: query,
  label: query,
  resource: "venues",
  query,
  format: "json",
  ...(suggest ? { suggest: true as const } : {}),
});

export async function benchLongWords(venues: number): Promise<void> {
  const db = new Database(await venuesState(venues), { readonly: true });
  const pick = db.prepare(
    "SELECT word FROM words WHERE length(word) = ? AND word GLOB '[a-z]*' ORDER BY venues DESC LIMIT ?",
  );
  const rows: string[] = [];
  let worst = 0;
  for (const length of LENGTHS) {
    for (const word of pick.pluck().all(length, WORDS_PER_LENGTH) as string[]) {
      for (const kind of KINDS) {
        const ms = await rawSqlMs(db, klass(kind.suggest, kind.query(word)));
        const first6 = await rawSqlMs(db, klass(kind.suggest, kind.query(word.slice(0, 6))));
        const ratio = ms / first6;
        worst = Math.max(worst, ratio);
        rows.push(`| ${word} | ${kind.label} | ${first6.toFixed(2)} | ${ms.toFixed(2)} | ${ratio.toFixed(2)} |`);
      }
    }
  }
  db.close();
  const table = [
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} on ${machine()} with \`npm run bench -- --long-words\` (${venues.toLocaleString("en-US")} venues; the raw SQL of a miss, its long words bound as the isolate binds them after its first miss, median of 60 runs).`,
    "",
    "| word | request | its first 6 letters ms | the word ms | ratio |",
    "| --- | --- | ---: | ---: | ---: |",
    ...rows,
    "",
    `The largest ratio: ${worst.toFixed(2)} (at most ${MOST_RATIO}).`,
  ].join("\n");
  console.log(`\n${table}\n`);
  if (!(await writeDocSection("long-words", table))) log("docs/benchmarks.md has no long-words section: not written");
}
