/**
 * The remote import in venue databases, as a dry run (docs/deploy.md#past-one-database): through
 * the real wrangler on a local D1 standing in for the remote (scripts/tools/wrangler-d1-stand-in.sh),
 * `--remote --dry-run --shards 2` says what the main database and each venue database would cost
 * and what they cost in all, and sends nothing; a run that would send is refused, as is a plan
 * that cannot hold the databases. Then each database is sent its import, and a change of one
 * region's venues reaches the main database and that region's venue database alone, as only what
 * changed, from a machine without their mirrors (each read back from its remote database). With
 * `--main-venues none` the main database is sent without the venues' rows.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { d1Database, localD1File, shardDatabases } from "../../scripts/import/wrangler.ts";
import { ROOT } from "../../scripts/tools/project.ts";
import { fixtureArgs, open } from "../support/import-fixtures.ts";
import { manifestOf } from "../support/shard-requests.ts";
import { importCommand, standInRemote } from "../support/import-command.ts";

const REMOTE = mkdtempSync(join(tmpdir(), "vcs-shard-remote-"));
/** wrangler.toml with the two venue databases declared, as a deployment declares them (at the root, where its paths lead). */
const CONFIG = join(ROOT, `wrangler.shards-remote-test-${process.pid}.toml`);
writeFileSync(
  CONFIG,
  readFileSync(join(ROOT, "wrangler.toml"), "utf8") +
    [1, 2]
      .map(
        (i) =>
          `\n[[d1_databases]]\nbinding = "DB_SHARD_${i}"\ndatabase_name = "remote-shard-${i}"\n` +
          `database_id = "00000000-0000-4000-8000-00000000000${i}"\nmigrations_dir = "migrations"\n`,
      )
      .join(""),
);
afterAll(() => {
  rmSync(REMOTE, { recursive: true, force: true });
  rmSync(CONFIG, { force: true });
});
const ARGS = ["--remote", ...fixtureArgs(), "--prefix-count-min", "20", "--seed", "shards", "--venues", "2000"];

/** The rows written a `Remote import…` or `In all…` line says D1 counts. */
const rowsOf = (line: string) => Number(/D1 counts ([0-9,]+) rows written/.exec(line)?.[1]?.replaceAll(",", "") ?? NaN);

/** Rows written per database by the first dry run: the main database's, then each venue database's. */
let dryRows: number[] = [];

describe("a remote import in venue databases, a dry run", () => {
  it("a dry run says each database's cost and their cost in all, and sends nothing", async () => {
    const dry = await importCommand([...ARGS, "--shards", "2", "--dry-run"], standInRemote(REMOTE));
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout.split("\n");
    expect(lines.filter((l) => l.startsWith("Dry run: nothing was sent to"))).toEqual([
      expect.stringContaining("the remote D1 database"),
      expect.stringContaining("the remote database venue-city-search-shard-1"),
      expect.stringContaining("the remote database venue-city-search-shard-2"),
    ]);
    const each = lines.filter((l) => l.trim().startsWith("Remote import")).map(rowsOf);
    expect(each).toHaveLength(3);
    const all = lines.find((l) => l.startsWith("In all, 3 databases")) ?? "";
    expect(all).toMatch(/Workers Free: .*Workers Paid: fits/);
    expect(rowsOf(all)).toBe(each.reduce((a, b) => a + b, 0));
    // Each venue database writes its own venues, fewer than the main database, which keeps them all.
    expect(Math.max(...each.slice(1))).toBeLessThan(each[0] ?? 0);
    dryRows = each;
    // Nothing ran remotely, not even the migrations: reading what the main database holds made its
    // stand-in's file, which holds no table; the venue databases do not exist yet.
    const d1 = join(REMOTE, "v3", "d1", "miniflare-D1DatabaseObject");
    const files = readdirSync(d1).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
    expect(files).toHaveLength(1);
    const tables = (f: string) =>
      open(join(d1, f), (db) =>
        db.prepare("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\'").pluck().get(),
      );
    expect(files.map(tables)).toEqual([0]);
  }, 300_000);

  it("a dry run with --main-venues none writes none of the venues' rows in the main database, the venue databases the same", async () => {
    const hollow = await importCommand(
      [...ARGS, "--shards", "2", "--main-venues", "none", "--dry-run"],
      standInRemote(REMOTE),
    );
    expect(hollow.code, hollow.stderr).toBe(0);
    const each = hollow.stdout
      .split("\n")
      .filter((l) => l.trim().startsWith("Remote import"))
      .map(rowsOf);
    expect(each.slice(1)).toEqual(dryRows.slice(1));
    // Each venue writes its row and its documents at least.
    expect(each[0]).toBeLessThanOrEqual((dryRows[0] ?? 0) - 2 * 2000);
  }, 300_000);
});

describe("a remote import whose size per database chooses how many (docs/deploy.md#a-size-per-database)", () => {
  it("a dry run says how many it chose and each one's estimate; a send to more than wrangler.toml declares stops before anything is sent", async () => {
    // A seed of its own: a dry run keeps its SQL files, and a run that finds them resumes without planning again.
    const args = [...ARGS, "--seed", `size-${process.pid}`, "--shard-size", "1MB"];
    const dry = await importCommand([...args, "--dry-run"], standInRemote(REMOTE));
    const kept = [...dry.stdout.matchAll(/data version (\w+)/g)].map(([, v]) =>
      join(ROOT, ".wrangler", "import", `remote-${v}`),
    );
    // The same dry run again goes on from the SQL files the first kept, without planning again,
    // and says the same choice and estimates, read from the main database's manifest.
    const resumed = await importCommand([...args, "--dry-run"], standInRemote(REMOTE));
    for (const dir of kept) rmSync(dir, { recursive: true, force: true });
    expect(dry.code, dry.stderr).toBe(0);
    const choseLine = /^--shard-size 1\.0 MB chose (\d+) venue databases: estimated .*; after the import .*\(.*$/m;
    const chose = choseLine.exec(dry.stdout);
    const count = Number(chose?.[1]);
    expect(count, dry.stdout).toBeGreaterThan(2);
    expect(dry.stdout.match(/^Dry run: nothing was sent to/gm)).toHaveLength(1 + count);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(choseLine.exec(resumed.stdout)?.[0], resumed.stdout).toBe(chose?.[0]);
    const refused = await importCommand(args, {
      ...standInRemote(REMOTE),
      IMPORT_WRANGLER_CONFIG: CONFIG,
    });
    for (const dir of kept) rmSync(dir, { recursive: true, force: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("wrangler.toml declares no DB_SHARD_3");
    // No stand-in holds data: the refusal came before the main database's first file (its migrations may have run).
    const d1 = join(REMOTE, "v3", "d1", "miniflare-D1DatabaseObject");
    const held = readdirSync(d1)
      .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
      .map((f) =>
        open(join(d1, f), (db) =>
          db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").pluck().get() === 0
            ? 0
            : db.prepare("SELECT count(*) FROM meta").pluck().get(),
        ),
      );
    expect(held.every((n) => n === 0)).toBe(true);
  }, 300_000);
});

describe("a remote import in venue databases, sent", () => {
  it("refuses to send to venue databases wrangler.toml does not declare, and more databases than Workers Free allows", async () => {
    const send = await importCommand([...ARGS, "--shards", "2"], standInRemote(REMOTE));
    expect(send.code).toBe(1);
    expect(send.stderr).toMatch(
      /wrangler.toml declares no DB_SHARD_1, DB_SHARD_2: create each with `npx wrangler d1 create venue-city-search-shard-1`/,
    );
    const free = await importCommand([...ARGS, "--shards", "10", "--dry-run", "--plan", "free"], standInRemote(REMOTE));
    expect(free.code).toBe(1);
    expect(free.stderr).toMatch(
      /10 venue databases and the main one are 11 databases, and Workers Free allows 10 an account/,
    );
    // Without venues in the main database, a merged search asks every venue database: within 50 calls.
    const calls = await importCommand(
      [...ARGS, "--shards", "6", "--main-venues", "none", "--dry-run", "--plan", "free"],
      standInRemote(REMOTE),
    );
    expect(calls.code).toBe(1);
    expect(calls.stderr).toMatch(
      /--main-venues none with 6 venue databases: a search merged from all of them makes up to 52 D1 calls, and Workers Free allows 50 a request; at most 5 venue databases there/,
    );
  }, 120_000);

  it("sends each database its own import, which the same command then finds current", async () => {
    const env = { ...standInRemote(REMOTE), IMPORT_WRANGLER_CONFIG: CONFIG };
    const sent = await importCommand([...ARGS, "--shards", "2"], env);
    expect(sent.code, sent.stderr).toBe(0);
    const [main, ...shards] = [d1Database(CONFIG), ...shardDatabases(2, CONFIG)].map((d) =>
      open(localD1File(d.id, REMOTE), (db) => ({
        venues: db.prepare("SELECT count(*) FROM venues").pluck().get() as number,
        version: db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get() as string,
        manifest: manifestOf(db),
      })),
    );
    expect(main?.venues).toBe(2000);
    expect(shards.map((s) => s.venues)).toEqual(main?.manifest.map((s) => s.venues));
    expect(shards.reduce((n, s) => n + s.venues, 0)).toBe(2000);
    expect(shards.map((s) => s.version)).toEqual(main?.manifest.map((s) => s.version));
    const again = await importCommand([...ARGS, "--shards", "2"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.match(/already holds data version/g)).toHaveLength(3);
    // The main database without its venues: sent to it alone, the venue databases current.
    const hollow = await importCommand([...ARGS, "--shards", "2", "--main-venues", "none"], env);
    expect(hollow.code, hollow.stderr).toBe(0);
    // Its files sent up to the swap, which swapTogether applied (scripts/import/shards/swap-together.ts).
    expect(hollow.stderr).toMatch(
      new RegExp(
        `^\\[[^\\]]*\\] ${d1Database(CONFIG).name}: remote file \\d+ of \\d+: swapping the new tables in$`,
        "m",
      ),
    );
    expect(hollow.stdout.match(/already holds data version/g)).toHaveLength(2);
    const mainAfter = open(localD1File(d1Database(CONFIG).id, REMOTE), (db) => ({
      venues: db.prepare("SELECT count(*) FROM venues").pluck().get(),
      held: db.prepare("SELECT value FROM meta WHERE key = 'main_venues'").pluck().get(),
    }));
    expect(mainAfter).toEqual({ venues: 0, held: "none" });
  }, 600_000);
});

/**
 * `args` from a machine without the mirrors (a fresh checkout): the two databases that change, the
 * main database and Vienna's, are read back, and each sent only what changed.
 */
async function withoutMirrors(args: string[], env: NodeJS.ProcessEnv) {
  for (const name of readdirSync(REMOTE).filter((n) => n.startsWith("mirror"))) {
    rmSync(join(REMOTE, name), { recursive: true, force: true });
  }
  const refresh = await importCommand(args, env);
  expect(refresh.code, refresh.stderr).toBe(0);
  const said = refresh.stdout + refresh.stderr;
  expect(
    said.match(/^No mirror here of the remote's data \w+: reading it from the remote database first/gm),
  ).toHaveLength(2);
  expect(said.match(/^Remote import of what changed: 1 file/gm)).toHaveLength(2);
  return refresh;
}

describe("a refresh of venue databases", () => {
  it("refreshes one region's venue database alone when only its venues changed", async () => {
    const env = { ...standInRemote(REMOTE), IMPORT_WRANGLER_CONFIG: CONFIG };
    const files = mkdtempSync(join(tmpdir(), "vcs-shard-venues-"));
    const before = join(files, "venues.csv");
    const after = join(files, "more-venues.csv");
    const venues = readFileSync(join(ROOT, "test", "fixtures", "venues.csv"), "utf8");
    writeFileSync(before, venues);
    // Three more venues in Vienna (2761369), whose region one venue database holds.
    const vienna = [1, 2, 3].map((n) => `ab${n}0c0de,Neue Halle ${n},2761369,`).join("\n");
    writeFileSync(after, `${venues.trimEnd()}\n${vienna}\n`);
    const command = (file: string) => [...ARGS.slice(0, -4), "--venues", file, "--shards", "2"];
    const served = () =>
      [d1Database(CONFIG), ...shardDatabases(2, CONFIG)].map((d) =>
        open(localD1File(d.id, REMOTE), (db) => ({
          version: db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get() as string,
          venues: db.prepare("SELECT count(*) FROM venues").pluck().get() as number,
          regions: manifestOf(db).map((m) => m.regions.map((r) => r.country)),
        })),
      );
    try {
      const first = await importCommand(command(before), env);
      expect(first.code, first.stderr).toBe(0);
      const [main, ...shards] = served();
      const vienna = shards.findIndex((_, i) => main?.regions[i]?.includes("AT"));
      expect(vienna).toBeGreaterThanOrEqual(0);
      const refresh = await withoutMirrors(command(after), env);
      const [mainAfter, ...shardsAfter] = served();
      // The plan kept its regions; the main database and Vienna's took the change, the other nothing.
      expect(mainAfter?.regions).toEqual(main?.regions);
      expect(mainAfter?.venues).toBe((main?.venues ?? 0) + 3);
      shardsAfter.forEach((s, i) => {
        expect(s.venues).toBe((shards[i]?.venues ?? 0) + (i === vienna ? 3 : 0));
        if (i === vienna) expect(s.version).not.toBe(shards[i]?.version);
        else expect(s.version).toBe(shards[i]?.version);
      });
      expect(refresh.stdout.match(/already holds data version/g)).toHaveLength(1);
      expect(refresh.stdout).toContain(`remote-shard-${2 - vienna} already holds data version`);
      // The same venues in another order (the generator's threads write theirs so): the same venue databases.
      const [head = "", ...rows] = readFileSync(after, "utf8").trimEnd().split("\n");
      writeFileSync(after, `${[head, ...rows.reverse()].join("\n")}\n`);
      const reordered = await importCommand(command(after), env);
      expect(reordered.code, reordered.stderr).toBe(0);
      expect(reordered.stdout.match(/remote-shard-\d already holds data version/g)).toHaveLength(2);
      // Without the main database's venues: it alone sent, then a change in Vienna to it and Vienna's alone.
      const apart = (file: string) => importCommand([...command(file), "--main-venues", "none"], env);
      expect((await apart(after)).stdout.match(/remote-shard-\d already holds data version/g)).toHaveLength(2);
      writeFileSync(after, `${readFileSync(after, "utf8")}ab40c0de,Neue Halle 4,2761369,\n`);
      const refreshed = await apart(after);
      expect(refreshed.code, refreshed.stderr).toBe(0);
      // Both staged first, then each database's file of what changed applied by swapTogether, at once.
      const [, together = ""] = refreshed.stderr.split(/^.*swapping 2 databases in.*$/m);
      const changed = [...together.matchAll(/^\[[^\]]*\] ([\w-]+): remote file 1 of \d+: what changed/gm)];
      expect(changed.map((m) => m[1]).sort()).toEqual([d1Database(CONFIG).name, `remote-shard-${vienna + 1}`].sort());
      expect(refreshed.stdout).toContain(`remote-shard-${2 - vienna} already holds data version`);
      const [mainApart, ...shardsApart] = served();
      expect(mainApart?.venues).toBe(0);
      expect(shardsApart.map((s) => s.venues)).toEqual(shardsAfter.map((s, i) => s.venues + (i === vienna ? 1 : 0)));
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  }, 600_000);
});
