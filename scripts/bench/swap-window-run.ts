/**
 * `npm run bench -- --swap-window`: what a search sees while the venue databases are imported
 * again under a main database without venues (docs/deploy.md#past-one-database). The default data
 * imported with `--shards 3 --main-venues none` into a state of its own (generated venues of one
 * seed), served by `wrangler dev` without its cache; then, while clients search it without pause,
 * imported again with venues of another seed, so that every database's data version changes. It
 * prints how many searches were answered, how many refused (503), and the longest stretch of time
 * in which searches were refused.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import type { ImportOptions } from "../import/options.ts";
import { FAST } from "../import/publish/steps.ts";
import { runShardedImport } from "../import/shards/import.ts";
import { d1Database, localD1File, shardDatabases } from "../import/wrangler.ts";
import { MAIN_HOLDS_NO_VENUE } from "../../src/data-contract/shards.ts";
import { log, machine, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import { SHARDS_BENCH_CONFIG, shardServer, stopShardState } from "./shards-serve-run.ts";

const SHARDS = 3;
const CLIENTS = 4;
/** How long the clients go on after the import: the seconds an isolate keeps the main database's version, and more. */
const AFTER_MS = 8_000;
const SEEDS = ["swap-window-a", "swap-window-b"] as const;
const STATE = join(TMP, "swap-window-state");

const importWith = (seed: string, pacing: ImportOptions["pacing"]) =>
  runShardedImport(
    {
      target: { kind: "local", persistTo: STATE },
      seed,
      mainVenues: MAIN_HOLDS_NO_VENUE,
      ...(pacing ? { pacing } : {}),
    },
    SHARDS,
    true,
    SHARDS_BENCH_CONFIG,
  );

/** A search that asks each venue database alone (a city of its own), and one that asks all of them. */
function searches(): string[] {
  return [
    ...shardDatabases(SHARDS).map((d) => {
      const db = new Database(localD1File(d.id, STATE), { readonly: true });
      try {
        const city = db.prepare("SELECT c.id FROM venues v JOIN cities c ON c.pos = v.city_pos LIMIT 1").pluck().get();
        return `/1.0/search/venues?cityId=${String(city)}`;
      } finally {
        db.close();
      }
    }),
    "/1.0/search/venues?name=club",
  ];
}

interface Answer {
  at: number;
  status: number;
}

/** Clients searching without pause until `done()`; every answer's time and status. */
async function searching(base: string, paths: readonly string[], done: () => boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  const client = async (offset: number) => {
    for (let i = offset; !done(); i++) {
      const res = await fetch(`${base}${paths[i % paths.length] ?? ""}`, { headers: { Accept: "application/json" } });
      await res.arrayBuffer();
      answers.push({ at: Date.now(), status: res.status });
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  return answers.sort((a, b) => a.at - b.at);
}

/** The longest time from a refusal to the last refusal after it with no answer between them, ms. */
function longestRefusal(answers: readonly Answer[]): number {
  let longest = 0;
  let since: number | null = null;
  for (const { at, status } of answers) {
    if (status === 503) {
      since ??= at;
      longest = Math.max(longest, at - since);
    } else since = null;
  }
  return longest;
}

/** The options the state's main database was imported with (meta `import_options`), or "" where it holds none. */
function servedOptions(): string {
  try {
    const main = new Database(localD1File(d1Database().id, STATE), { readonly: true });
    try {
      return String(main.prepare("SELECT value FROM meta WHERE key = 'import_options'").pluck().get() ?? "");
    } finally {
      main.close();
    }
  } catch {
    return "";
  }
}

export async function benchSwapWindow(): Promise<void> {
  const started = Date.now();
  const [from, to] = servedOptions().includes(`"${SEEDS[0]}"`) ? [SEEDS[0], SEEDS[1]] : [SEEDS[1], SEEDS[0]];
  log(`importing the default data (seed ${from}) with --shards ${SHARDS} --main-venues none into ${STATE}`);
  await importWith(from, FAST);
  try {
    const { base } = await shardServer(STATE, 8799);
    const paths = searches();
    let importing = true;
    let endedAt = 0;
    const clients = searching(base, paths, () => !importing && Date.now() - endedAt > AFTER_MS);
    log(`imported again with seed ${to} while ${CLIENTS} clients search ${paths.join(", ")}`);
    const importStarted = Date.now();
    await importWith(to, undefined).finally(() => {
      importing = false;
      endedAt = Date.now();
    });
    const answers = await clients;
    const refused = answers.filter((a) => a.status === 503).length;
    const others = answers.filter((a) => a.status !== 200 && a.status !== 503).map((a) => a.status);
    const text =
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()} with \`npm run bench -- --swap-window\` ` +
      `(${Math.round((Date.now() - started) / 1000)} s): the default data with \`--shards ${SHARDS} --main-venues none\`, served by ` +
      `\`wrangler dev\` without its cache, imported again with other generated venues (every database's data version changed) ` +
      `in ${((endedAt - importStarted) / 1000).toFixed(1)} s while ${CLIENTS} clients searched each venue database alone and all ` +
      `of them at once, without pause, and ${AFTER_MS / 1000} s after: **${answers.length.toLocaleString("en-US")}** searches, ` +
      `**${refused.toLocaleString("en-US")}** refused (503), the longest stretch of refusals **${(longestRefusal(answers) / 1000).toFixed(3)} s**` +
      `${others.length > 0 ? `, and ${others.length} other failures (${[...new Set(others)].join(", ")})` : ", no other failure"}.`;
    console.log(`\n${text}\n`);
    if (await writeDocSection("swap-window", text, join("docs", "deploy.md"))) log("wrote it into docs/deploy.md");
  } finally {
    stopShardState();
  }
}
