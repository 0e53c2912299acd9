/**
 * What a remote import costs in D1's units, said before it is paid and compared with what D1
 * counts: a fixture import through the real wrangler on a local D1 standing in for the remote
 * database (scripts/tools/wrangler-d1-stand-in.sh, whose `d1 execute --json` answers with D1's own
 * meta: rows written, size). The dry run sends nothing; the run after it sends the same files and
 * D1 counts the rows the first line said; an unchanged re-import sends nothing; a plan the import
 * does not fit stops it before its first file.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ImportSummary } from "../../scripts/import/run.ts";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { fixtureArgs, open } from "../support/import-fixtures.ts";
import { importCommand, standInRemote } from "../support/import-command.ts";

const REMOTE = mkdtempSync(join(tmpdir(), "vcs-remote-cost-"));
afterAll(() => rmSync(REMOTE, { recursive: true, force: true }));
const served = () => localD1File(d1Database().id, REMOTE);
// A seed of its own: a data version no other test file's remote import writes files for.
const ARGS = ["--remote", ...fixtureArgs(), "--prefix-count-min", "20", "--seed", "cost", "--json"];

/** The figures of the first line (`Remote import…: N files, … D1 counts R rows written; … holds D MB … and A MB after`). */
function firstLine(stderr: string): { line: string; rows: number; during: number; after: number } {
  const line = stderr.split("\n").find((l) => l.startsWith("Remote import")) ?? "";
  const number = (re: RegExp) => Number(re.exec(line)?.[1]?.replaceAll(",", "") ?? NaN);
  return {
    line,
    rows: number(/D1 counts ([0-9,]+) rows written/),
    during: number(/holds ([0-9.]+) MB while/),
    after: number(/and ([0-9.]+) MB after/),
  };
}

const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ImportSummary;

/** The cost worked out before the first file, checked against what D1 said it counted for the files. */
function counted(stdout: string) {
  const remote = summaryOf(stdout).remote;
  if (remote?.applied === undefined) throw new Error(`no remote figures in ${stdout}`);
  const { cost, applied } = remote;
  expect(applied.rowsWritten).toBe(cost.rows);
  near(cost.sizeAfter, applied.sizeAfter ?? 0);
  near(cost.sizeDuring, applied.peakSize ?? 0, 0.02);
  return { cost, applied };
}

/**
 * Within 0.5 % (the replica and D1 end a few pages apart: D1's own tables); the most the database
 * held meanwhile within 2 % (FTS5's segments before they are merged differ by a few pages more).
 */
const near = (predicted: number, measured: number, share = 0.005) =>
  expect(Math.abs(predicted - measured)).toBeLessThanOrEqual(Math.max(measured * share, 4 * 4096));

/** The tables the stand-in holds (D1's own aside); none when it has no file yet. */
const tables = () =>
  existsSync(served())
    ? open(served(), (db) =>
        db.prepare("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\'").pluck().get(),
      )
    : 0;

describe("the cost of a remote import, before it is paid", () => {
  it("a dry run says it in one line and sends nothing", async () => {
    const dry = await importCommand([...ARGS, "--venues", "2000", "--dry-run"], standInRemote(REMOTE));
    expect(dry.code, dry.stderr).toBe(0);
    const said = firstLine(dry.stderr);
    expect(said.line).toMatch(
      /^Remote import: \d+ files, [0-9.]+ MB to upload .*; D1 counts [0-9,]+ rows written; the database holds .* Workers Free: fits\. Workers Paid: fits \(.*\)\.$/,
    );
    expect(said.rows).toBeGreaterThan(20_000);
    expect(summaryOf(dry.stdout).remote).toMatchObject({ dryRun: true, skipped: 0 });
    expect(dry.stderr).not.toMatch(/remote file \d+ of/);
    // Nothing ran remotely, not even the migrations.
    expect(tables()).toBe(0);
  }, 300_000);

  it("the run after it sends those files, and D1 counts the rows it said", async () => {
    const run = await importCommand([...ARGS, "--venues", "2000"], standInRemote(REMOTE));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/reading cities\.txt/); // the dry run's files, not a new build
    const said = firstLine(run.stderr);
    const { cost, applied } = counted(run.stdout);
    expect(applied.rowsWritten).toBe(said.rows);
    // The line's sizes, to its 0.1 MB, are the summary's.
    expect(Math.abs(said.after - cost.sizeAfter / 1e6)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(said.during - cost.sizeDuring / 1e6)).toBeLessThanOrEqual(0.05);
  }, 300_000);

  it("so does a re-import of other data over it, the old data's size freed after the swap", async () => {
    // --full: other data over it would otherwise be sent as what changed (import-remote-refresh.test.ts).
    const run = await importCommand([...ARGS, "--venues", "2500", "--full"], standInRemote(REMOTE));
    expect(run.code, run.stderr).toBe(0);
    const { cost } = counted(run.stdout);
    // The old and the new data, both there before the drop.
    expect(cost.sizeDuring).toBeGreaterThan(1.6 * cost.sizeAfter);
  }, 300_000);

  it("an unchanged re-import sends nothing", async () => {
    const again = await importCommand([...ARGS, "--venues", "2500"], standInRemote(REMOTE));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ skippedAsCurrent: true, counts: { venues: 2500 } });
    expect(again.stderr).not.toMatch(/reading cities\.txt|Remote import|remote file/);
  }, 300_000);

  it("an import that does not fit the plan stops before its first file, in one line", async () => {
    const before = open(served(), (db) =>
      db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get(),
    );
    const free = await importCommand([...ARGS, "--venues", "20000", "--plan", "free", "--full"], standInRemote(REMOTE));
    expect(free.code, free.stderr).toBe(1);
    const last = free.stderr.trim().split("\n").at(-1);
    expect(last).toMatch(
      /^import failed: stopped before the first file: the import writes [0-9,]+ rows as D1 counts them, and Workers Free allows 100,000 a day; import a smaller data set: docs\/deploy\.md#workers-free .*--plan paid; the data that was there before is unchanged$/,
    );
    expect(free.stderr).not.toMatch(/remote file \d+ of/);
    expect(open(served(), (db) => db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get())).toBe(
      before,
    );
  }, 300_000);
});
