/**
 * The remote path end to end, through the real wrangler: `npm run db:import -- --remote` with a
 * local D1 standing in for the remote database (scripts/tools/wrangler-d1-stand-in.sh turns
 * `--remote` into `--local --persist-to DIR`), so that every file goes through wrangler's own
 * `d1 execute --file` and D1's own rules. Failed at a middle file inside D1 and resumed; then the
 * state served by `wrangler dev` answers as the local import of the same data does.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_SELECTION } from "../../scripts/import/sources/venue-selection.ts";
import { build } from "../../scripts/import/phases/build.ts";
import { createBuildFile } from "../../scripts/import/phases/build-file.ts";
import { Problems } from "../../scripts/import/problems.ts";
import { MAX_STATEMENT_BYTES, remoteParts } from "../../scripts/import/publish/remote.ts";
import { runImport } from "../../scripts/import/run.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { startDevServer, type DevServer } from "../../scripts/tools/dev-server.ts";
import { ROOT } from "../../scripts/tools/project.ts";
import { dir, FIXTURES, fixtureArgs, open, quiet, snapshot } from "../support/import-fixtures.ts";
import { freePort, importCommand, standInRemote } from "../support/import-command.ts";

const REMOTE = mkdtempSync(join(tmpdir(), "vcs-remote-"));
const LOCAL = mkdtempSync(join(tmpdir(), "vcs-remote-local-"));
const servedFile = (state: string) => localD1File(d1Database().id, state);
const OPTIONS = { ...FIXTURES, venueCount: 2000, prefixCountMin: 20 };
/** A full import (`--full`): the remote holds other data, which a refresh would read back and send the difference of. */
const ARGS = ["--remote", "--full", ...fixtureArgs(), "--venues", "2000", "--prefix-count-min", "20", "--json"];

const servers: DevServer[] = [];
afterAll(() => {
  for (const s of servers) s.stop();
  rmSync(REMOTE, { recursive: true, force: true });
  rmSync(LOCAL, { recursive: true, force: true });
});

/** What a served state answers to requests of every kind, JSON and XML: status, type and body. */
async function answers(state: string, paths: readonly string[]): Promise<string[]> {
  const server = await startDevServer({
    port: await freePort(),
    args: ["--persist-to", state],
    probe: "/1.0/openapi.json",
  });
  servers.push(server);
  const out: string[] = [];
  for (const path of paths) {
    const xml = path.startsWith("/rest/");
    const res = await fetch(`${server.base}${path}`, {
      headers: { Accept: xml ? "application/xml" : "application/json" },
    });
    out.push(`${path} ${res.status} ${res.headers.get("content-type")}\n${await res.text()}`);
  }
  server.stop();
  return out;
}

/** Each statement of a written SQL file (they end with `;` and a newline), after its `-- what` line. */
const statementsOf = (path: string) => readFileSync(path, "utf8").split(";\n").slice(0, -1);

/** The data version of the import both paths make (the local import's, in the first test). */
let version = "";
/** How many files the remote import has. */
let fileCount = 0;

/** The statements of the SQL files kept for a resume: within D1's limits, nothing D1 refuses. */
function checkKeptFiles(): number {
  const files = join(ROOT, ".wrangler", "import", `remote-${version}`);
  const sql = readdirSync(files).filter((f) => f.endsWith(".sql"));
  for (const f of sql) {
    expect(statSync(join(files, f)).size).toBeLessThanOrEqual(20 * 2 ** 20);
    for (const s of statementsOf(join(files, f))) {
      expect(Buffer.byteLength(s)).toBeLessThan(MAX_STATEMENT_BYTES + 1000);
      expect(s).not.toMatch(/^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|PRAGMA)\b/i);
    }
  }
  return sql.length;
}

const PATHS = [
  "/1.0/search/venues?name=arena",
  "/1.0/search/venues?cityName=berlin&p=2",
  "/1.0/search/venues?lat=51.5074&long=-0.1278&radius=10",
  "/1.0/search/cities?name=wien",
  "/1.0/search/cities?name=sao%20paolo",
  "/1.0/search/countries",
  "/1.0/suggest/venues?name=sta",
  "/1.0/suggest/cities?name=fra",
  "/1.0/city/2950159",
  "/rest/1.0/search/cities?name=m%C3%BCnchen&country=DE",
  "/rest/1.0/search/venues?name=club&country=DE",
];

describe("remote import through wrangler", () => {
  it("fails at a middle file in one line, changing nothing served", async () => {
    // What the remote database serves before: an import of other data (1500 venues).
    await runImport(
      { ...OPTIONS, venueCount: 1500, target: { kind: "local", persistTo: REMOTE }, pacing: FAST },
      quiet,
    );
    const before = snapshot(servedFile(REMOTE));
    version = (await runImport({ ...OPTIONS, target: { kind: "local", persistTo: LOCAL }, pacing: FAST }, quiet))
      .dataVersion;

    // File 3 (the indexes' merges) fails inside D1 (a statement after the file's own): nothing of it applies.
    const failed = await importCommand(ARGS, standInRemote(REMOTE, "00002.sql"));
    expect(failed.code, failed.stderr).toBe(1);
    const lines = failed.stderr.trim().split("\n");
    expect(lines.filter((l) => l.includes("failed"))).toEqual([lines.at(-1)]);
    expect(lines.at(-1)).toMatch(
      /^import failed: remote file 3 of \d+ \(00002\.sql, merging cities_fts … merging \w+\) did not apply: wrangler said "no such table: injected_failure: SQLITE_ERROR"; the data served before is unchanged; run the same command again to resume from file 3$/,
    );
    expect(failed.stderr).not.toMatch(/^\s+at /m);
    expect(snapshot(servedFile(REMOTE))).toEqual(before);
    fileCount = checkKeptFiles();
    // The stage tables, every table's rows and documents, the merges, the swap, the clean-up.
    expect(fileCount).toBe(5);
  }, 300_000);

  it("resumes at that file when run again, and lands what the local import lands", async () => {
    const resumed = await importCommand(ARGS, standInRemote(REMOTE));
    expect(resumed.code, resumed.stderr).toBe(0);
    // No build: the upload goes on at file 3.
    expect(resumed.stderr).not.toMatch(/reading cities\.txt|writing the SQL files/);
    expect(resumed.stderr.match(/remote file \d+ of \d+/)?.[0]).toBe(`remote file 3 of ${fileCount}`);
    const summary = JSON.parse(resumed.stdout) as { remote: { files: number; skipped: number } };
    expect(summary.remote).toMatchObject({ files: fileCount, skipped: 2 });

    // The same rows and indexes as the local import; nothing of the upload left.
    expect(snapshot(servedFile(REMOTE))).toEqual(snapshot(servedFile(LOCAL)));
    expect(snapshot(servedFile(REMOTE)).version).toBe(version);
    const leftovers =
      "SELECT name FROM sqlite_master WHERE name GLOB 'stage_*' OR name GLOB 'old_*' OR name = 'import_progress'";
    expect(open(servedFile(REMOTE), (db) => db.prepare(leftovers).all())).toEqual([]);
  }, 300_000);
});

describe("the state a remote import leaves", () => {
  it("serves, under wrangler dev, the answers the local import's state gives", async () => {
    const venue = open(servedFile(LOCAL), (db) =>
      db.prepare("SELECT id FROM venues ORDER BY pos LIMIT 1").pluck().get(),
    );
    const paths = [...PATHS, `/1.0/venue/${String(venue)}`];
    const served = await answers(REMOTE, paths);
    expect(served.filter((a) => / 200 /.test(a.split("\n")[0] ?? ""))).toHaveLength(paths.length);
    expect(served.join("\n")).toMatch(/"total":[1-9]/);
    expect(served).toEqual(await answers(LOCAL, paths));
  }, 300_000);
});

describe("the statements of a remote import", () => {
  it("keep under D1's limit", async () => {
    const db = createBuildFile(join(dir, "limits.sqlite"));
    await build(
      db,
      { ...FIXTURES, venueFiles: [], venueCount: 3000, seed: "x", selection: DEFAULT_SELECTION },
      new Problems(false),
      quiet,
    );
    let statements = 0;
    for (const part of remoteParts(db, [["data_version", "x"]], "x", "t")) {
      for (const { sql } of part.statements) {
        expect(Buffer.byteLength(sql)).toBeLessThan(MAX_STATEMENT_BYTES + 1000);
        statements++;
      }
    }
    expect(statements).toBeGreaterThan(20);
    db.close();
  }, 60_000);
});
