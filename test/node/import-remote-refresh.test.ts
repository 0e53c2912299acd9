/**
 * A remote refresh sends only what changed (docs/deploy.md#a-refresh-that-writes-what-changed),
 * through the real wrangler on a local D1 standing in for the remote database: a full import of
 * data A, then data B (venues added in Berlin, one renamed, one gone, a city's population changed,
 * which moves it among the cities) sent as one file of differences; the stand-in then holds what a
 * full import of B into another stand-in holds — every row of every table and every (term,
 * document) of every search index — and D1 counted the rows written the first line said. A refresh
 * that fails changes nothing served and is sent again; the search indexes it changed are merged
 * into one segment each after it, and a merge that fails leaves the new data served; with no mirror,
 * or one of another data version, the mirror is read back from the remote first and the same
 * difference sent; `--force` with unchanged data sends the meta rows alone.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../../scripts/import/phases/build-file.ts";
import type { ImportSummary } from "../../scripts/import/run.ts";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { FIXTURES, open } from "../support/import-fixtures.ts";
import { importCommand, standInRemote } from "../support/import-command.ts";
import { dataDifferences } from "../support/same-data.ts";
import { fixture } from "../support/seed.ts";

const WORK = mkdtempSync(join(tmpdir(), "vcs-remote-refresh-"));
const [REFRESHED, FULL] = [join(WORK, "refreshed"), join(WORK, "full")];
afterAll(() => rmSync(WORK, { recursive: true, force: true }));
const served = (dir: string) => localD1File(d1Database().id, dir);

/** Data B: the fixture venues with one gone, one renamed and 20 added in Berlin; Soldeu 99,999 people. */
function writeDataB(): { venues: string; cities: string } {
  const [head = "", ...rows] = readFileSync(fixture("venues.csv"), "utf8").trim().split("\n");
  const kept = rows
    .filter((_, i) => i !== 3)
    .map((r, i) => (i === 4 ? r.replace(/^([^,]*),([^,]*)/, "$1,$2 Hall") : r));
  const added = Array.from({ length: 20 }, (_, k) => `b${String(k).padStart(7, "0")},Neue Bühne ${k},2950159,`);
  const venues = join(WORK, "venues-b.csv");
  writeFileSync(venues, [head, ...kept, ...added].join("\n") + "\n");
  const cities = join(WORK, "cities-b.txt");
  const soldeu = (line: string) =>
    line.startsWith("3038999\t") ? line.replace(/^((?:[^\t]*\t){14})602\t/, "$199999\t") : line;
  writeFileSync(cities, readFileSync(FIXTURES.cities, "utf8").split("\n").map(soldeu).join("\n"));
  return { venues, cities };
}

const common = ["--admin1", FIXTURES.admin1, "--countries", FIXTURES.countries, "--localized", FIXTURES.localized];
const args = (cities: string, venues: string) => [
  "--remote",
  "--cities",
  cities,
  ...common,
  "--venues",
  venues,
  "--prefix-count-min",
  "20",
  "--json",
];
const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ImportSummary;
const version = (dir: string) =>
  open(served(dir), (db) => db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get());

/** The rows of the tables a mirror read back holds (its indexes' shadow tables too). */
const rowsOf = (path: string) =>
  open(path, (db) => {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
      .pluck()
      .all() as string[];
    const read = tables.filter((t) => /^(meta|.*_fts_(data|idx|config))$/.test(t) || PLAIN_TABLES.includes(t as never));
    return read.reduce((n, t) => n + (db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number), 0);
  });

/**
 * `args` sent to FULL, which has no mirror of the data it serves (`dataVersion`): the remote read back, its
 * rows said before and as D1 counted them, then only what changed sent.
 */
async function readBack(args: string[], dataVersion: unknown) {
  const rows = rowsOf(served(FULL));
  const refresh = await importCommand(args, standInRemote(FULL));
  expect(refresh.code, refresh.stderr).toBe(0);
  const said = new RegExp(
    `^No mirror here of the remote's data ${String(dataVersion)}: reading it from the remote database first, about ([0-9,]+) rows read, to send only what changed\\.$`,
    "m",
  );
  expect(refresh.stderr).toMatch(said);
  const about = Number(said.exec(refresh.stderr)?.[1]?.replaceAll(",", ""));
  const counted = Number(
    /^\(read ([0-9,]+) rows of the remote database, as D1 counts them\)$/m
      .exec(refresh.stderr)?.[1]
      ?.replaceAll(",", ""),
  );
  // What was said first is near what D1 counted, and D1 counted each row read about once.
  expect(about / rows).toBeGreaterThan(0.8);
  expect(about / rows).toBeLessThan(1.25);
  expect(counted / rows).toBeGreaterThanOrEqual(1);
  expect(counted / rows).toBeLessThan(1.1);
  const remote = summaryOf(refresh.stdout).remote;
  expect(remote?.cost.refresh).toBe(true);
  expect(remote?.applied?.rowsWritten).toBe(remote?.cost.rows);
  return { rows: remote?.cost.rows ?? 0 };
}

/** Each FTS5 index of a database and its segments (the distinct segment ids of its %_idx table). */
const segments = (path: string) =>
  open(path, (db) =>
    FTS_DOCUMENTS.map(({ table }) => {
      const count = db.prepare(`SELECT count(DISTINCT segid) FROM ${table}_idx`).pluck().get() as number;
      return [table, count] as const;
    }),
  );

const b = writeDataB();
/** The rows the refresh from A to B wrote, from the build's own mirror. */
let refreshedRows = 0;
const A = args(FIXTURES.cities, fixture("venues.csv"));
const B = args(b.cities, b.venues);

/**
 * Data C (B and one venue more) refreshed with its merge file failing: the new data served, the
 * index left in two segments, said in one line; then the same command, which sends the merges
 * alone, without the mirror too.
 */
async function failedMerge(): Promise<void> {
  const c = join(WORK, "venues-c.csv");
  writeFileSync(c, `${readFileSync(b.venues, "utf8")}c0000001,Neue Halle,2950159,\n`);
  const before = version(REFRESHED);
  const failed = await importCommand(args(b.cities, c), standInRemote(REFRESHED, "00001.sql"));
  expect(failed.code, failed.stderr).toBe(1);
  expect(failed.stderr.trim().split("\n").at(-1)).toMatch(
    /^import failed: the remote refresh applied, and the new data is served, but 00001\.sql \(merging venues_fts[^)]*\) did not apply: .*; searches by name read more until they are merged: run the same command again to merge them$/,
  );
  const servedC = version(REFRESHED);
  expect(servedC).not.toBe(before);
  expect(
    open(served(REFRESHED), (db) => db.prepare("SELECT count(*) FROM venues WHERE name = 'Neue Halle'").pluck().get()),
  ).toBe(1);
  expect(segments(served(REFRESHED))).toContainEqual(["venues_fts", 2]);
  // The same command again, from a machine without the mirror: the data is current, and only the
  // merges are sent (sized by the index's pages, read from the remote).
  rmSync(join(REFRESHED, "mirror"), { recursive: true, force: true });
  const again = await importCommand(args(b.cities, c), standInRemote(REFRESHED));
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toMatch(
    /^The remote holds this data; venues_fts[^;]* in more than one segment \(merges that did not finish\): merging them, 1 file\.$/m,
  );
  expect(summaryOf(again.stdout)).toMatchObject({
    skippedAsCurrent: true,
    merged: expect.arrayContaining(["venues_fts"]),
  });
  expect(segments(served(REFRESHED)).filter(([, n]) => n > 1)).toEqual([]);
  expect(version(REFRESHED)).toBe(servedC);
  // Back to B, for the tests after this one.
  const back = await importCommand(B, standInRemote(REFRESHED));
  expect(back.code, back.stderr).toBe(0);
}

/**
 * FULL, which serves A, sent B with a mirror of another data version, then A with no mirror at
 * all: each the same data as a full import, with no more rows written than from the build's own mirror.
 */
async function sentWithoutMirror(): Promise<void> {
  // FULL serves A. A copy of it, to compare with once A is sent back.
  const servedA = join(WORK, "served-a.sqlite");
  copyFileSync(served(FULL), servedA);
  const mirror = join(FULL, "mirror");
  // A mirror that says it holds another data version (as another checkout's import leaves it).
  const record = join(mirror, "mirror.json");
  writeFileSync(record, readFileSync(record, "utf8").replace(/"version": "\w+"/, '"version": "0000000000000000"'));
  const b = await readBack(B, version(FULL));
  expect(dataDifferences(served(REFRESHED), served(FULL))).toEqual([]);
  // No more rows than the same change sent from the build's own mirror.
  expect(b.rows).toBeGreaterThan(0);
  expect(b.rows).toBeLessThanOrEqual(refreshedRows);
  // No mirror at all (a fresh checkout): A back.
  rmSync(mirror, { recursive: true, force: true });
  await readBack(A, version(FULL));
  expect(dataDifferences(servedA, served(FULL))).toEqual([]);
  // The mirror left is the build's again: the next refresh reads nothing back.
  const again = await importCommand(B, standInRemote(FULL));
  expect(again.stderr).not.toMatch(/No mirror here/);
  expect(summaryOf(again.stdout).remote?.cost.refresh).toBe(true);
  expect(dataDifferences(served(REFRESHED), served(FULL))).toEqual([]);
}

describe("a remote refresh", () => {
  it("after a full import of A, sends B as one file of what changed, and D1 counts the rows it said", async () => {
    const a = await importCommand(A, standInRemote(REFRESHED));
    expect(a.code, a.stderr).toBe(0);
    expect(summaryOf(a.stdout).remote?.cost.refresh).toBeUndefined();
    const before = version(REFRESHED);
    const failed = await importCommand(B, standInRemote(REFRESHED, "00000.sql"));
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr.trim().split("\n").at(-1)).toMatch(
      /^import failed: the remote refresh \(00000\.sql, what changed since \w+\) did not apply: .*; the data served before is unchanged; run the same command again to send it again$/,
    );
    expect(version(REFRESHED)).toBe(before);
    const refresh = await importCommand(B, standInRemote(REFRESHED));
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.stderr).toMatch(
      /^Remote import of what changed: 1 file, then 1 merging the search indexes it changed into one segment each, [0-9.]+ MB to upload; D1 counts [0-9,]+ rows written; .*Workers Free: fits\./m,
    );
    // The changed indexes merged back into one segment each, as a fresh import leaves them.
    expect(segments(served(REFRESHED)).filter(([, n]) => n > 1)).toEqual([]);
    const remote = summaryOf(refresh.stdout).remote;
    expect(remote?.cost.refresh).toBe(true);
    expect(remote?.applied?.rowsWritten).toBe(remote?.cost.rows);
    refreshedRows = Number(remote?.cost.rows);
    const full = summaryOf(a.stdout).remote?.cost.rows ?? 0;
    // Most of the fixture's cities and words are unchanged; one city moved, so its country's ranks did.
    expect(remote?.cost.rows).toBeLessThan(full / 10);
    expect(Math.abs((remote?.cost.sizeAfter ?? 0) - (remote?.applied?.sizeAfter ?? 0))).toBeLessThanOrEqual(8 * 4096);
  }, 400_000);

  it("leaves the data a full import of B leaves: every row, every indexed term of every document", async () => {
    const full = await importCommand(B, standInRemote(FULL));
    expect(full.code, full.stderr).toBe(0);
    expect(version(FULL)).toBe(version(REFRESHED));
    expect(dataDifferences(served(REFRESHED), served(FULL))).toEqual([]);
    // The check sees a difference where there is one: A against B.
    const a = await importCommand([...A, "--full"], standInRemote(FULL));
    expect(a.code, a.stderr).toBe(0);
    expect(dataDifferences(served(REFRESHED), served(FULL))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^venues: /), expect.stringMatching(/^venues_fts: /)]),
    );
  }, 400_000);

  it(
    "with no mirror, or one of another data version, reads the remote back and sends only what changed",
    sentWithoutMirror,
    400_000,
  );

  it("leaves the new data served when a merge of the indexes fails, and says so", failedMerge, 400_000);

  it("sends nothing for unchanged data, and only the meta rows when forced", async () => {
    const again = await importCommand(B, standInRemote(REFRESHED));
    expect(summaryOf(again.stdout)).toMatchObject({ skippedAsCurrent: true });
    const forced = await importCommand([...B, "--force"], standInRemote(REFRESHED));
    expect(forced.code, forced.stderr).toBe(0);
    const remote = summaryOf(forced.stdout).remote;
    expect(remote?.cost.refresh).toBe(true);
    expect(remote?.applied?.rowsWritten).toBe(remote?.cost.rows);
    const metaRows = open(served(REFRESHED), (db) => db.prepare("SELECT count(*) FROM meta").pluck().get() as number);
    // DELETE FROM meta, then each row again (a WITHOUT ROWID table: its key is the row).
    expect(remote?.cost.rows).toBe(2 * metaRows);
  }, 400_000);
});
