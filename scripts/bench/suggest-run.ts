/**
 * `npm run bench -- --suggest`: suggestions as you type (docs/benchmarks.md#suggestions), on the
 * default data and on 1,000,000 venues, through `wrangler dev`: letters to the first place against
 * the oracle (suggest-letters.ts), what a miss costs against the plain name search, a hit through
 * the edge cache against a search's hit, and the size of 8 suggestions.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { startDevServer, stopDevServers } from "../tools/dev-server.ts";
import { ROOT } from "../tools/project.ts";
import { log, machine, measureClasses, PROBE, report, startMissWorker, timedImport, TMP } from "./common.ts";
import { sequential } from "./measure.ts";
import { SUGGEST_CLASSES } from "./query-classes.ts";
import type { ClassFigures, ImportFigures } from "./results.ts";
import { cityTargets, lettersFigures, venueTargets, type LettersFigures } from "./suggest-letters.ts";
import { suggestTargets, suggestText, type SuggestResults } from "./suggest-render.ts";
import { listFigures, prefixTexts, type ListFigures } from "./suggest-lists.ts";

const SEED = "bench suggest";
const JSON_ACCEPT = { Accept: "application/json" };
const SUGGEST_RESULTS = join(ROOT, "bench", "suggest.json");

/** The id of the first suggestion of a text, from a worker. */
const firstOf = (base: string, resource: "venues" | "cities") => async (typed: string) => {
  const res = await fetch(`${base}/1.0/suggest/${resource}?name=${encodeURIComponent(typed)}`, {
    headers: JSON_ACCEPT,
  });
  const body = (await res.json()) as { venue?: { id: string }[]; cities?: { id: string }[] };
  return (resource === "venues" ? body.venue : body.cities)?.[0]?.id;
};

/** The lists people see around the first suggestion: prefixes of the 500 most populous target cities. */
async function lists(base: string, db: Database.Database): Promise<ListFigures> {
  log("the lists around the first suggestion: cities, limits 8 and 20");
  return listFigures(base, prefixTexts(cityTargets(db, SEED).targets.slice(0, 500)), db);
}

async function letters(base: string, db: Database.Database, resources: readonly ("venues" | "cities")[]) {
  const out: LettersFigures[] = [];
  for (const resource of resources) {
    log(`letters to the first place: ${resource}`);
    const { records, targets, ids } = resource === "cities" ? cityTargets(db, SEED) : venueTargets(db, SEED);
    const first = firstOf(base, resource);
    out.push(await lettersFigures(resource, records, targets, async (typed) => ids.get((await first(typed)) ?? "")));
  }
  return out;
}

/** The largest answer of 8 suggestions among a few short texts, bytes of JSON. */
async function largestAnswer(base: string): Promise<number> {
  let largest = 0;
  for (const path of [
    "/1.0/suggest/venues?name=s",
    "/1.0/suggest/venues?name=the",
    "/1.0/suggest/cities?name=s",
    "/1.0/suggest/cities?name=san",
  ]) {
    const res = await fetch(`${base}${path}`, { headers: JSON_ACCEPT });
    largest = Math.max(largest, (await res.arrayBuffer()).byteLength);
  }
  return largest;
}

/** A suggestion's hit through the edge cache, against a search's hit, one request at a time (p50, ms). */
async function hits(state: string): Promise<{ suggest: number; search: number }> {
  const base = (
    await startDevServer({ port: 8796, args: ["--persist-to", state, "--var", "RATE_LIMIT:off"], probe: PROBE })
  ).base;
  const suggestPath = "/1.0/suggest/cities?name=par";
  for (const path of [suggestPath, PROBE]) await sequential(`${base}${path}`, JSON_ACCEPT, 1);
  const suggest = await sequential(`${base}${suggestPath}`, JSON_ACCEPT, 5);
  const search = await sequential(`${base}${PROBE}`, JSON_ACCEPT, 5);
  return { suggest: suggest.p50, search: search.p50 };
}

async function measureData(label: string, venues: number, port: number) {
  const state = join(TMP, `suggest-${venues}`);
  rmSync(state, { recursive: true, force: true });
  log(`importing ${label} into ${state}`);
  const imported: ImportFigures = await timedImport(venues, ["--persist-to", state]);
  const misses = await startMissWorker(port, state);
  const db = new Database(localD1File(d1Database().id, state), { readonly: true, fileMustExist: true });
  try {
    const defaults = venues === 250_000;
    const found = await letters(misses, db, defaults ? ["cities", "venues"] : ["venues"]);
    const listed = defaults ? { lists: await lists(misses, db) } : {};
    const classes: ClassFigures[] = await measureClasses(misses, db, SUGGEST_CLASSES);
    return { label, imported, letters: found, ...listed, classes, largestBytes: await largestAnswer(misses), state };
  } finally {
    db.close();
  }
}

export async function benchSuggest(): Promise<void> {
  const started = Date.now();
  // The figures before this run: a miss must cost no more than it did (suggestTargets).
  const before = existsSync(SUGGEST_RESULTS)
    ? (JSON.parse(readFileSync(SUGGEST_RESULTS, "utf8")) as SuggestResults)
    : null;
  try {
    const defaults = await measureData("the default data (250,000 venues)", 250_000, 8794);
    const hit = await hits(defaults.state);
    const million = await measureData("1,000,000 venues", 1_000_000, 8795);
    const results: SuggestResults = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      runs: [defaults, million].map(({ state: _state, ...run }) => run),
      hits: hit,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(SUGGEST_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const targets = suggestTargets(results, before);
    await report(suggestText(results, targets), targets, "suggest");
  } finally {
    stopDevServers();
  }
}
