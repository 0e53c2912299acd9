/**
 * One import at a time per database (scripts/import/lock.ts): two `npm run db:import` started at
 * once into one local D1 both land, one after the other, while the served data stays whole; an
 * import waits for a lock's holder, naming it, and takes over the lock of a process that is gone;
 * and the next import deletes the build files that an import stopped before its end left.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { Progress } from "../../scripts/import/progress.ts";
import { withImportLock } from "../../scripts/import/lock.ts";
import { dropLeftBuilds } from "../../scripts/import/phases/build-file.ts";
import { runImport, WORK_DIR } from "../../scripts/import/run.ts";
import type { Target } from "../../scripts/import/options.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { ensureData, servedWithData } from "../../scripts/import/start-data.ts";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { ROOT } from "../../scripts/tools/project.ts";
import { count, dir, FIXTURES, fixtureArgs, fixtureImport, quiet } from "../support/import-fixtures.ts";
import { sleep } from "../support/stand-ins/listen.ts";
import { importCommand, type Finished } from "../support/import-command.ts";

const STATE = mkdtempSync(join(tmpdir(), "vcs-lock-"));
afterAll(() => rmSync(STATE, { recursive: true, force: true }));

/** The documents an FTS5 index holds: the first varint of its averages record (id 1). */
function ftsDocuments(db: Database.Database, table: string): number {
  const averages = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).pluck().get() as Buffer;
  let n = 0;
  for (const byte of averages) {
    n = n * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) break;
  }
  return n;
}

/** What the served file holds, read in one transaction: whole when its counts agree with its meta. */
function servedState(db: Database.Database): { venues: number; whole: boolean } {
  return db.transaction(() => {
    const meta = (key: string) => db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(key);
    const venues = db.prepare("SELECT count(*) FROM venues").pluck().get() as number;
    const documents = ftsDocuments(db, "venues_fts");
    const cities = db.prepare("SELECT count(*) FROM cities").pluck().get() as number;
    const whole =
      meta("data_version") !== undefined &&
      Number(meta("rows_venues")) === venues &&
      documents === venues &&
      Number(meta("rows_cities")) === cities;
    return { venues, whole };
  })();
}

/** A Progress whose lines are kept. */
function keptProgress(): { progress: Progress; text: () => string } {
  let text = "";
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { progress: new Progress(out as unknown as NodeJS.WriteStream), text: () => text };
}

describe("one import at a time", () => {
  it("lets two imports started at once into one local D1 land one after the other, the served data whole throughout", async () => {
    await runImport(
      { ...FIXTURES, venueCount: 1000, prefixCountMin: 20, target: { kind: "local", persistTo: STATE }, pacing: FAST },
      quiet,
    );
    const served = localD1File(d1Database().id, STATE);
    const args = (venues: number) => [
      "--persist-to",
      STATE,
      ...fixtureArgs(),
      "--venues",
      String(venues),
      "--prefix-count-min",
      "20",
    ];
    const runs: Promise<Finished>[] = [importCommand(args(2100)), importCommand(args(2200))];
    let finished: Finished[] | null = null;
    void Promise.all(runs).then((f) => (finished = f));

    const reader = new Database(served, { readonly: true, timeout: 10_000 });
    const seen = new Set<number>();
    let reads = 0;
    while (finished === null) {
      const state = servedState(reader);
      expect(state.whole, `read ${reads}: ${state.venues} venues`).toBe(true);
      seen.add(state.venues);
      reads++;
      await sleep(20);
    }
    reader.close();

    const [a, b] = finished as Finished[];
    for (const f of [a, b]) expect(f?.code, f?.stderr).toBe(0);
    const waited = [a, b].map((f) =>
      /Waiting for the import into the local D1 database that is running \(pid \d+, since [0-9-]+ [0-9:]+ UTC: scripts\/import\.ts --persist-to /.test(
        f?.stderr ?? "",
      ),
    );
    expect(waited.filter(Boolean), `${a?.stderr}\n----\n${b?.stderr}`).toHaveLength(1);
    const [first, second] = waited[0] === true ? [2200, 2100] : [2100, 2200];
    expect([...seen].every((n) => [1000, first, second].includes(n))).toBe(true);
    expect(seen.has(first) && seen.has(second)).toBe(true);
    expect(count(served, "venues")).toBe(second);
    expect(reads).toBeGreaterThan(10);
  }, 300_000);
});

describe("the import lock", () => {
  it("waits for a running import, naming it, and takes over the lock of one that is gone", async () => {
    const path = join(dir, "locked.sqlite");
    await fixtureImport(path);
    // Another process takes the lock and holds it, as an import would, until it is killed.
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { withImportLock } = await import("./scripts/import/lock.ts");
         await withImportLock({ kind: "file", path: ${JSON.stringify(path)} }, { line() {} }, () => {
           console.log("holding");
           return new Promise(() => setInterval(() => {}, 1000));
         });`,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout.on("data", () => resolve()));
    // However the test ends, the holder does not outlive it (a failed run waited for it).
    onTestFinished(() => void holder.kill("SIGKILL"));
    const { progress, text } = keptProgress();
    let done = false;
    const importing = runImport(
      { ...FIXTURES, venueCount: 2300, prefixCountMin: 20, target: { kind: "file", path } },
      progress,
    ).finally(() => (done = true));
    while (!text().includes("Waiting")) await sleep(50);
    expect(text()).toContain(`Waiting for the import into ${path} that is running (pid ${holder.pid}, since `);
    await sleep(1500);
    expect(done).toBe(false);
    expect(count(path, "venues")).toBe(2000);

    holder.kill("SIGKILL");
    const summary = await importing;
    expect(summary.counts.venues).toBe(2300);
    expect(count(path, "venues")).toBe(2300);
    expect(text()).toMatch(
      new RegExp(
        `The import into ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} of pid ${holder.pid}, since .* is gone without ending: its lock is taken over\\.`,
      ),
    );
    // Released at the end: the next import takes the lock at once.
    const next = keptProgress();
    await runImport(
      { ...FIXTURES, venueCount: 2000, prefixCountMin: 20, target: { kind: "file", path } },
      next.progress,
    );
    expect(next.text()).not.toMatch(/Waiting|taken over/);
  }, 120_000);
});

/** Holds the import lock of `target` here until the returned function is called. */
async function holdLock(target: Target): Promise<() => Promise<void>> {
  let release: () => void = () => undefined;
  let taken: () => void = () => undefined;
  const isTaken = new Promise<void>((resolve) => (taken = resolve));
  const holding = withImportLock(target, quiet, () => {
    taken();
    return new Promise<void>((resolve) => (release = resolve));
  });
  await isTaken;
  return async () => {
    release();
    await holding;
  };
}

/** Starts `work`, checks that it waits (printing the waiting line) while the lock is held, then lets it go on. */
async function waitsForTheLock<T>(target: Target, work: (progress: Progress) => Promise<T>): Promise<[T, string]> {
  const release = await holdLock(target);
  const { progress, text } = keptProgress();
  let done = false;
  const working = work(progress).finally(() => (done = true));
  while (!text().includes("Waiting")) await sleep(50);
  await sleep(1000);
  expect(done).toBe(false);
  await release();
  return [await working, text()];
}

describe("npm start and npm run venues", () => {
  it("read what is served only once a running import into it has ended", async () => {
    // npm start's data check: a user's own import, served as it is once the import beside it ends.
    const state = join(STATE, "start");
    const own = { ...FIXTURES, venueCount: 500, target: { kind: "local", persistTo: state }, pacing: FAST } as const;
    await runImport(own, quiet);
    const [served, startText] = await waitsForTheLock({ kind: "local", persistTo: state }, (progress) =>
      ensureData(progress, state),
    );
    expect(served).toBe("own");
    expect(startText).toMatch(/Waiting for the import into the local D1 database that is running \(pid \d+/);
    expect(startText).toMatch(/ended after \d+ s\.\nChecking the local database \.\.\.\nServing your own import/);

    // npm run venues: the served file it reads the place over.
    const path = join(dir, "venues-lock.sqlite");
    await fixtureImport(path);
    const [file, venuesText] = await waitsForTheLock({ kind: "file", path }, (progress) =>
      servedWithData({ kind: "file", path }, progress),
    );
    expect(file).toBe(path);
    expect(venuesText).toContain(`Waiting for the import into ${path} that is running (pid ${process.pid}, since `);
  }, 120_000);
});

describe("what an import stopped before its end left", () => {
  it("is deleted by the next import, and the build of an import still running is not", async () => {
    // A pid that no process holds now: a process that has ended.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const left = [`build-${gone}-1.sqlite`, `build-${gone}-1-side-cities.sqlite`, `build-${gone}-1.sqlite-wal`];
    const running = `build-${process.pid}-1.sqlite`;
    const own = mkdtempSync(join(tmpdir(), "vcs-left-"));
    onTestFinished(() => rmSync(own, { recursive: true, force: true }));
    for (const name of [...left, running, "read-0123456789abcdef.sqlite"])
      writeFileSync(join(own, name), "x".repeat(1000));
    const { progress, text } = keptProgress();
    dropLeftBuilds(own, progress);
    expect(readdirSync(own).sort()).toEqual([running, "read-0123456789abcdef.sqlite"].sort());
    expect(text()).toBe(`Deleted what imports that stopped before their end left in ${own}: 3 files, 0.0 MiB.\n`);

    // An import does it in the checkout's folder of imports before it builds.
    mkdirSync(WORK_DIR, { recursive: true });
    for (const name of left) writeFileSync(join(WORK_DIR, name), "x");
    onTestFinished(() => left.forEach((name) => rmSync(join(WORK_DIR, name), { force: true })));
    await fixtureImport(join(dir, "after-left.sqlite"));
    for (const name of left) expect(existsSync(join(WORK_DIR, name))).toBe(false);
  }, 120_000);
});
