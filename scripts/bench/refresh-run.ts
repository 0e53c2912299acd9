/**
 * `npm run bench -- --refresh`: what a refresh changes in the served tables today — the yardstick of
 * issue 56's "a refresh writes what changed" (docs/deploy.md#a-refresh-that-writes-what-changed).
 * The default data's generated venues, exported as a venue file (A), and the same with 300 venues
 * in Berlin added (B), as `npm run venues -- osm "Berlin"` adds a city's; each imported into a file
 * of its own; then the tables compared key by key: the rows of B that A lacks or holds otherwise,
 * the keys of A that B lacks, and what D1 would count for sending only those (1 + k per row
 * written into a table with k indexes, 1 per row deleted, 2 per FTS5 document that moves).
 * Then the real thing, through the real wrangler on a local D1 standing in for the remote database:
 * a full remote import of A, the remote import of B (which sends only what changed), and B once
 * more (unchanged: nothing sent), then A again from a machine without the mirror (its mirror
 * deleted: read back from the remote first, then only what changed sent) — what each read back and
 * sent, what D1 counted, and the sizes; the table goes into docs/benchmarks.md ("remote-refresh").
 */
import { createWriteStream, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ownPointSql } from "../../src/data-contract/venue-points.ts";
import { PLAIN_TABLES } from "../import/phases/build-file.ts";
import { keyColumns } from "../import/publish/stage.ts";
import type { ImportSummary } from "../import/run.ts";
import { bin, IMPORT_COMMAND, run } from "../tools/project.ts";
import { log, machine, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import { standInEnv } from "../tools/d1-stand-in-call.ts";

const ADDED = 300;
const BERLIN = { id: "2950159", lat: 52.52, lng: 13.4 };

const csvField = (v: unknown) => (/[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v ?? ""));

/**
 * Writes the venues of a served file as a venue file (CSV), with `added` more in Berlin; `round`
 * names those (the same ids) otherwise, so that each round changes every one of their names.
 * Without `points`, no venue has a point of its own, as setlist.fm's own venue rows give them.
 */
export async function exportVenues(
  from: string,
  path: string,
  { added = 0, round = 0, points = true }: { added?: number; round?: number; points?: boolean } = {},
): Promise<void> {
  const db = new Database(from, { readonly: true });
  const out = createWriteStream(path);
  const line = (fields: unknown[]) => out.write(`${fields.map(csvField).join(",")}\n`);
  line(["id", "name", "cityId", "url", "lat", "long", "kind"]);
  const [lat, lng] = points ? [ownPointSql("v", "lat"), ownPointSql("v", "lng")] : ["NULL", "NULL"];
  const rows = db.prepare(
    `SELECT v.id, v.name, c.id, v.url, ${lat}, ${lng}, v.kind FROM venues v JOIN cities c ON c.pos = v.city_pos ORDER BY v.pos`,
  );
  for (const row of rows.raw().iterate() as Iterable<unknown[]>) line(row);
  const words = db
    .prepare("SELECT word FROM words WHERE venues > 20 AND length(word) > 3 ORDER BY word LIMIT ? OFFSET ?")
    .pluck();
  const offset = words.all(added, round * added) as string[];
  const pick = offset.length === added ? offset : (words.all(added, 0) as string[]);
  for (let i = 0; i < added; i++) {
    // Spread over the city, as a city's venues are: a fixed pattern, so that runs compare.
    const [dLat, dLng] = [((i * 37) % 160) / 1000 - 0.08, ((i * 53) % 300) / 1000 - 0.15];
    const name = `${(pick[i] ?? "neue").replace(/^./, (c) => c.toUpperCase())} ${["Club", "Halle", "Bühne", "Bar"][(i + round) % 4]}`;
    const url = `https://www.openstreetmap.org/node/${900_000_000 + i}`;
    line([(0xf0000000 + i).toString(16), name, BERLIN.id, url, BERLIN.lat + dLat, BERLIN.lng + dLng, "club"]);
  }
  db.close();
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

const importFile = (database: string, extra: string[]) =>
  run(bin("tsx"), [...IMPORT_COMMAND, "--database", database, "--force", "--fast", "-q", ...extra]);

interface TableChange {
  table: string;
  rows: number;
  changed: number;
  gone: number;
  full: number;
  diff: number;
}

/** Table by table: rows of B new or other than in A, keys of A gone from B, and what D1 counts for each way. */
function compare(a: string, b: string): TableChange[] {
  const db = new Database(b, { readonly: true });
  db.prepare("ATTACH DATABASE ? AS a").run(a);
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  const changes: TableChange[] = PLAIN_TABLES.map((table) => {
    const k = count(`SELECT count(*) FROM main.sqlite_master WHERE type = 'index' AND tbl_name = '${table}'`);
    const keys = keyColumns(db, table)
      .map((c) => c.name)
      .join(", ");
    const rows = count(`SELECT count(*) FROM main.${table}`);
    const changed = count(`SELECT count(*) FROM (SELECT * FROM main.${table} EXCEPT SELECT * FROM a.${table})`);
    const gone = count(
      `SELECT count(*) FROM (SELECT ${keys} FROM a.${table} EXCEPT SELECT ${keys} FROM main.${table})`,
    );
    return { table, rows, changed, gone, full: rows * (1 + k), diff: changed * (1 + k) + gone };
  });
  // An FTS5 document's rowid is its record's pos (words: id): a record at another one moves its document.
  for (const [fts, table, key] of [
    ["cities_fts", "cities", "pos, id"],
    ["venues_fts", "venues", "pos, id"],
    ["words_fts", "words", "id, word"],
  ] as const) {
    const rows = count(`SELECT count(*) FROM main.${table}`);
    const moved = count(`SELECT count(*) FROM (SELECT ${key} FROM main.${table} EXCEPT SELECT ${key} FROM a.${table})`);
    changes.push({ table: fts, rows, changed: moved, gone: 0, full: rows, diff: 2 * moved });
  }
  // Each name apart is a document at rowid pos * NAME_SLOTS + n (src/data-contract/name-sets.ts):
  // contentless, counted from the name texts (a record with names apart lists them all there).
  for (const [fts, texts, table] of [
    ["city_name_words_fts", "city_name_texts", "cities"],
    ["venue_name_words_fts", "venue_name_texts", "venues"],
  ] as const) {
    const docs = `SELECT r.pos, r.id, json_array_length(t.names) AS n FROM main.${texts} t JOIN main.${table} r USING (pos)
                  WHERE json_array_length(t.names) > 1`;
    const rows = count(`SELECT coalesce(sum(n), 0) FROM (${docs})`);
    const moved = count(
      `SELECT coalesce(sum(n), 0) FROM (${docs}) d WHERE NOT EXISTS (SELECT 1 FROM a.${table} o WHERE o.pos = d.pos AND o.id = d.id)`,
    );
    changes.push({ table: fts, rows, changed: moved, gone: 0, full: rows, diff: 2 * moved });
  }
  db.close();
  return changes;
}

function table(changes: readonly TableChange[]): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const [full, diff] = [changes.reduce((s, c) => s + c.full, 0), changes.reduce((s, c) => s + c.diff, 0)];
  return [
    "| table | rows | new or changed | gone | D1 rows, full import | D1 rows, only what changed |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...changes.map(
      (c) => `| ${c.table} | ${n(c.rows)} | ${n(c.changed)} | ${n(c.gone)} | ${n(c.full)} | ${n(c.diff)} |`,
    ),
    `| **all** | | | | **${n(full)}** | **${n(diff)}** (${((100 * diff) / full).toFixed(1)} %) |`,
  ].join("\n");
}

interface RemoteRun {
  what: string;
  /** Rows read back from the remote first, where it had no mirror. */
  readBack: number | null;
  files: number;
  bytes: number;
  said: number;
  counted: number | null;
  sizeAfter: number | null;
  seconds: number;
}

/** What a remote import's summary says it read back, sent and cost. */
function runOf(what: string, s: ImportSummary): RemoteRun {
  const r = s.remote;
  return {
    what,
    readBack: r?.readBack ?? null,
    files: r === undefined ? 0 : r.files - r.skipped,
    bytes: r?.bytes ?? 0,
    said: r?.cost.rows ?? 0,
    counted: r?.applied?.rowsWritten ?? (r === undefined ? 0 : null),
    sizeAfter: r?.applied?.sizeAfter ?? null,
    seconds: s.seconds,
  };
}

/** Full remote import of A, then B (what changed), B again (unchanged), then A without the mirror, into one stand-in. */
async function remoteRuns(csvA: string, csvB: string): Promise<RemoteRun[]> {
  const state = join(TMP, "refresh-remote-state");
  rmSync(state, { recursive: true, force: true });
  const env = standInEnv(state);
  const runs: RemoteRun[] = [];
  for (const [what, csv] of [
    ["full import of A", csvA],
    [`B (${ADDED} venues added in Berlin)`, csvB],
    ["B again (unchanged)", csvB],
    [`A from a machine without the mirror (its ${ADDED} venues gone)`, csvA],
  ] as const) {
    log(`remote import: ${what}`);
    if (csv === csvA && runs.length > 0) rmSync(env.IMPORT_MIRROR_DIR ?? "", { recursive: true, force: true });
    const output = await run(bin("tsx"), [...IMPORT_COMMAND, "--remote", "--venues", csv, "--json", "-q"], {
      env,
      stdoutOnly: true,
    });
    runs.push(runOf(what, JSON.parse(output.trim().split("\n").at(-1) ?? "") as ImportSummary));
  }
  rmSync(state, { recursive: true, force: true });
  return runs;
}

function remoteTable(runs: readonly RemoteRun[], venues?: number): string {
  const n = (x: number | null) => (x === null ? "—" : x.toLocaleString("en-US"));
  const full = runs[0]?.counted ?? 0;
  const share = (x: number | null) => (x === null || full === 0 ? "" : ` (${((100 * x) / full).toFixed(2)} %)`);
  return [
    `Measured with \`npm run bench -- --refresh${venues === undefined ? "" : ` --venues ${venues}`}\` on ${machine()}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: the real wrangler on a local D1 standing in for the remote database (one stand-in, in turn).`,
    "",
    "| remote import | rows read back first | files sent | bytes sent | rows written, said before | rows written, D1 counted | size after (D1) | time |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...runs.map(
      (r) =>
        `| ${r.what} | ${n(r.readBack)} | ${r.files} | ${n(r.bytes)} | ${n(r.said)} | ${n(r.counted)}${share(r === runs[0] ? null : r.counted)} | ${r.sizeAfter === null ? "—" : `${(r.sizeAfter / 1e6).toFixed(1)} MB`} | ${r.seconds.toFixed(1)} s |`,
    ),
  ].join("\n");
}

/** With `venues`, that many generated venues instead of the default data's (its table printed, not written into the docs). */
export async function benchRefresh(venues?: number): Promise<void> {
  const generated = join(TMP, "refresh-generated.sqlite");
  const [a, b] = [join(TMP, "refresh-a.sqlite"), join(TMP, "refresh-b.sqlite")];
  const [csvA, csvB] = [join(TMP, "refresh-a.csv"), join(TMP, "refresh-b.csv")];
  log(
    `${venues === undefined ? "the default data" : `${venues.toLocaleString("en-US")} generated venues`}, whose venues become the venue file`,
  );
  await importFile(generated, venues === undefined ? [] : ["--venues", String(venues)]);
  await exportVenues(generated, csvA);
  await exportVenues(generated, csvB, { added: ADDED });
  log(`the venue file (A), then the same with ${ADDED} venues in Berlin (B)`);
  await importFile(a, ["--venues", csvA]);
  await importFile(b, ["--venues", csvB]);
  log("comparing B with A, table by table");
  console.log(`\n${table(compare(a, b))}\n`);
  const remote = remoteTable(await remoteRuns(csvA, csvB), venues);
  console.log(`\n${remote}\n`);
  if (venues === undefined && (await writeDocSection("remote-refresh", remote))) {
    log("wrote the table into docs/benchmarks.md (remote-refresh)");
  }
  for (const f of [generated, a, b]) {
    for (const end of ["", "-wal", "-shm", ".import-lock", ".import-lock.json"]) rmSync(`${f}${end}`, { force: true });
  }
  for (const f of [csvA, csvB]) rmSync(f, { force: true });
}
