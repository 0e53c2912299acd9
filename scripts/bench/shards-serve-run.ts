/**
 * `npm run bench -- --shards-serve [--count N]`: what asking venue databases costs a miss
 * (docs/deploy.md#past-one-database). The default data imported with `--shards N` (3 unless
 * given) into a state of its own, served three times by `wrangler dev` without its cache: with
 * wrangler.toml alone (one database: the main one, which keeps every venue); with the import's
 * shard configuration, as imported (the main database answers what asks several venue databases);
 * and so, from a copy whose main database holds no venue (what asks several merged from them, a
 * venue by its id read from every one). Each class is sent to the three in turn, one request at a
 * time; the answers are compared first.
 */
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { FAST } from "../import/publish/steps.ts";
import { runShardedImport } from "../import/shards/import.ts";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { startDevServer, stopDevServers } from "../tools/dev-server.ts";
import { takeVenuesOut } from "../tools/hollow-main.ts";
import { ROOT } from "../tools/project.ts";
import { log, machine, PROBE, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import { interleaved } from "./measure.ts";
import { lastPageInWindow } from "../../src/params/window.ts";

/** The wrangler configuration the benches' sharded imports write (stopShardState deletes it). */
export const SHARDS_BENCH_CONFIG = join(ROOT, "wrangler.shards-bench.toml");
const SECONDS = 5;
const stateOf = (shards: number) => join(TMP, `shards-state-${shards}`);
const serving = (state: string) => ["--persist-to", state, "--var", "EDGE_CACHE:off", "--var", "RATE_LIMIT:off"];

/** The classes, from the city with the most venues: its venues, its country's, a box, a name in it; names alone; suggestions merged. */
function classes(state: string): [label: string, path: string][] {
  const db = new Database(localD1File(d1Database().id, state), { readonly: true });
  try {
    const city = db
      .prepare(
        `SELECT c.id, c.country_code AS country, c.lat, c.lng, min(v.id) AS venue FROM venues v JOIN cities c ON c.pos = v.city_pos
         GROUP BY v.city_pos ORDER BY count(*) DESC LIMIT 1`,
      )
      .get() as { id: string; country: string; lat: number; lng: number; venue: string };
    const box = [city.lng - 0.2, city.lat - 0.2, city.lng + 0.2, city.lat + 0.2].map((x) => x.toFixed(2)).join(",");
    return [
      ["a city's venues", `/1.0/search/venues?cityId=${city.id}`],
      ["a city's venues, page 3", `/1.0/search/venues?cityId=${city.id}&p=3`],
      ["a name in a city", `/1.0/search/venues?name=club&cityId=${city.id}`],
      [
        "a name with typos in a country (its decisions split)",
        `/1.0/search/venues?name=clbu%20rooom&country=${city.country}`,
      ],
      [
        "a name of two words in a country (its decisions split)",
        `/1.0/search/venues?name=royal%20theatre&country=${city.country}`,
      ],
      ["a country's venues", `/1.0/search/venues?country=${city.country}`],
      ["a box", `/1.0/search/venues?bbox=${box}`],
      [
        "a name of two words in a box (its places over every venue database)",
        `/1.0/search/venues?name=royal%20theatre&bbox=${box}`,
      ],
      ["a suggestion in a country", `/1.0/suggest/venues?name=the&country=${city.country}`],
      ["every venue, page 1,000 (every venue database, merged)", "/1.0/search/venues?p=1000"],
      ["a kind alone (every venue database, merged)", "/1.0/search/venues?kind=club"],
      ["a kind alone, the window's last page (merged)", `/1.0/search/venues?kind=club&p=${lastPageInWindow("venues")}`],
      ["a box over several countries (its first page merged)", "/1.0/search/venues?bbox=2,49,8,54"],
      [
        "within 50 km of Mexicali, page 2 (every venue there merged)",
        "/1.0/search/venues?lat=32.6245&long=-115.4523&radius=50&p=2",
      ],
      ["a name in a box over several countries (merged)", "/1.0/search/venues?name=club&bbox=2,49,8,54"],
      ["a name with a typo in a box over several countries (merged)", "/1.0/search/venues?name=clbu&bbox=2,49,8,54"],
      ["a name within 50 km of Mexicali (merged)", "/1.0/search/venues?name=the&lat=32.6245&long=-115.4523&radius=50"],
      ["a name alone (every venue database, merged)", "/1.0/search/venues?name=club"],
      ["a name of two words alone (merged)", "/1.0/search/venues?name=royal%20theatre"],
      ["a broad word alone, page 2 (merged from its anchors)", "/1.0/search/venues?name=club&p=2"],
      ["a broad word alone, page 33 (merged from its anchors)", "/1.0/search/venues?name=club&p=33"],
      ["a name with typos alone (its fallback merged)", "/1.0/search/venues?name=clbu%20rooom"],
      ["a word of fewer than 600 matches, page 10 (counted first, merged)", "/1.0/search/venues?name=dome&p=10"],
      ["a name and a city alone (the place's answer merged)", "/1.0/search/venues?name=club%20berlin"],
      ["a venue by its id (every venue database at once)", `/1.0/venue/${city.venue}`],
      ["a suggestion of a name alone (every venue database, merged)", "/1.0/suggest/venues?name=clu"],
      [
        "a suggestion with a focus (every venue database, merged)",
        `/1.0/suggest/venues?name=the&lat=${city.lat}&long=${city.lng}`,
      ],
    ];
  } finally {
    db.close();
  }
}

const timingOf = (res: Response) => /databases=([^"]*)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? "";
const rowsOf = (res: Response) => /rows_read=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? "–";

/** The servers a class is sent to: one database, the venue databases as imported, and over a main database without venues. */
interface Served {
  one: string;
  imported: string;
  merged: string;
}

async function measureClass(served: Served, label: string, path: string): Promise<string> {
  const bases = [served.one, served.imported, served.merged];
  const answers = await Promise.all(bases.map((base) => fetch(`${base}${path}`)));
  const bodies = await Promise.all(answers.map((res) => res.text()));
  if (bodies.some((b) => b !== bodies[0]) || answers.some((res) => res.status !== answers[0]?.status)) {
    throw new Error(`${path}: the servers answer differently`);
  }
  const [one, imported, merged] = answers as [Response, Response, Response];
  log(`${label}: ${path} (${one.status}; as imported: ${timingOf(imported)}; merged: ${timingOf(merged)})`);
  const figures = await interleaved(
    bases.map((base) => `${base}${path}`),
    {},
    3 * SECONDS,
  );
  const [a, b, c] = figures;
  if (a === undefined || b === undefined || c === undefined) throw new Error(`no figures for ${path}`);
  const ratio = (x: number) => (a.p50 > 0 ? (x / a.p50).toFixed(2) : "–");
  const cells = [
    label,
    `\`${path.replace(/^\/1\.0/, "")}\``,
    `${timingOf(imported)} / ${timingOf(merged)}`,
    `${rowsOf(one)} / ${rowsOf(imported)} / ${rowsOf(merged)}`,
    a.p50,
    b.p50,
    ratio(b.p50),
    c.p50,
    ratio(c.p50),
    `${a.p99} / ${b.p99} / ${c.p99}`,
  ];
  return `| ${cells.join(" | ")} |`;
}

/**
 * The default data in the main database and `shards` venue databases, in a state of its own
 * (imported when not current, with the shard configuration SHARDS_BENCH_CONFIG, which stopShardState deletes):
 * the state and each database's import seconds.
 */
export async function shardState(shards: number): Promise<{ state: string; seconds: string[] }> {
  const state = stateOf(shards);
  log(`importing the default data with --shards ${shards} into ${state} (skipped when current)`);
  const imported = await runShardedImport(
    { target: { kind: "local", persistTo: state }, pacing: FAST },
    shards,
    true,
    SHARDS_BENCH_CONFIG,
  );
  return {
    state,
    seconds: [imported.main, ...imported.shards.map((s) => s.summary)].map((s) => s.seconds.toFixed(1)),
  };
}

/** The copies of states that hollowCopy() made without the main database's venues. */
const hollowCopies = new Set<string>();

/**
 * A copy of a state of shardState whose main database holds no venue (scripts/tools/hollow-main.ts),
 * so that what asks several venue databases is merged from them rather than answered by the main
 * database; made while nothing serves the state (a runtime that holds its files open may change
 * them under the copy).
 */
export function hollowCopy(state: string): string {
  const copy = `${state}-hollow`;
  hollowCopies.add(copy);
  rmSync(copy, { recursive: true, force: true });
  cpSync(state, copy, { recursive: true });
  takeVenuesOut(localD1File(d1Database().id, copy));
  return copy;
}

/** `wrangler dev` of a state of shardState (or its hollowCopy), without its cache. */
export const shardServer = (state: string, port: number) =>
  startDevServer({ port, args: ["--config", SHARDS_BENCH_CONFIG, ...serving(state)], probe: PROBE });

/** Stops the servers and deletes the shard configuration and the copies without venues. */
export function stopShardState(): void {
  stopDevServers();
  rmSync(SHARDS_BENCH_CONFIG, { force: true });
  for (const copy of hollowCopies) rmSync(copy, { recursive: true, force: true });
  hollowCopies.clear();
}

export async function benchShardsServe(shards = 3): Promise<void> {
  const started = Date.now();
  const { state, seconds } = await shardState(shards);
  try {
    const hollow = hollowCopy(state);
    // One after the other: two runtimes opening one state at once may find its files locked (SQLITE_BUSY).
    const served: Served = {
      one: (await startDevServer({ port: 8796, args: serving(state), probe: PROBE })).base,
      imported: (await shardServer(state, 8798)).base,
      merged: (await shardServer(hollow, 8797)).base,
    };
    const lines = [
      `| class | request | databases that answered (as imported / merged) | rows read (one / as imported / merged) | p50 one (ms) | p50 with ${shards}, as imported | ratio | p50 with ${shards}, merged | ratio | p99 (one / as imported / merged) |`,
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ];
    for (const [label, path] of classes(state)) lines.push(await measureClass(served, label, path));
    const text = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} with \`npm run bench -- --shards-serve --count ${shards}\` (${Math.round((Date.now() - started) / 1000)} s): the default data in the main database and ${shards} venue databases (imports ${seconds.join(", ")} s, or skipped as current), misses one at a time, ${3 * SECONDS} s each, the three servers in turn: one database, the venue databases as imported (the main database holding every venue), and over a copy whose main database holds no venue (merged).`,
      lines.join("\n"),
    ].join("\n\n");
    console.log(`\n${text}\n`);
    if (await writeDocSection(`shards-serve-${shards}`, text, join("docs", "deploy.md")))
      log(`wrote the table into docs/deploy.md (shards-serve-${shards})`);
  } finally {
    stopShardState();
  }
}
