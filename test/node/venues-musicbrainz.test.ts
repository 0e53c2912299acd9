/**
 * `npm run venues -- musicbrainz` against a stand-in of the MusicBrainz JSON dumps on 127.0.0.1:
 * the newest dump's place.tar.xz downloaded, resumed after a break, checked, its places imported
 * under setlist.fm's ids where they link their setlist.fm page (an OSM record of the same venue
 * too), nothing downloaded again while the dump is current; a checksum mismatch and a full disk
 * change nothing served.
 */
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startMusicBrainzDump,
  buildPlaceTarXz,
  type MusicBrainzDumpOptions,
} from "../support/stand-ins/musicbrainz-dump.ts";
import { startOverpass } from "../support/stand-ins/overpass.ts";
import {
  AREAS,
  newDir,
  OVERPASS_ANSWER,
  PLACE_LINES,
  servedFile,
  servedVenues,
  venues,
  versionOf,
} from "../support/venues-command.ts";

/** The setlist.fm id each fixture place links, by name. */
const SETLIST_IDS = new Map(
  PLACE_LINES.flatMap((line) => {
    const place = JSON.parse(line) as { name: string; relations: { type: string; url?: { resource: string } }[] };
    const page = place.relations.find((r) => r.type === "setlistfm")?.url?.resource;
    const id = page === undefined ? undefined : /-([0-9a-f]{8})\.html$/.exec(page)?.[1];
    return id === undefined ? [] : [[place.name, id] as const];
  }),
);

let archive: Buffer;
beforeAll(async () => {
  archive = await buildPlaceTarXz(PLACE_LINES);
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function dumps(options: Partial<MusicBrainzDumpOptions> = {}) {
  const server = await startMusicBrainzDump({
    folders: [
      { name: "20261118-001001", files: { "place.tar.xz": Buffer.from("older") } },
      { name: "20261125-001001", files: { "place.tar.xz": archive } },
    ],
    ...options,
  });
  closers.push(() => server.close());
  return server;
}

describe("npm run venues -- musicbrainz", () => {
  it("fetches the newest dump's places and serves those that link setlist.fm under setlist.fm's ids", async () => {
    const [path, downloads, server] = [await servedFile(), newDir(), await dumps()];
    const ran = await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    expect(ran.error).toBeNull();
    expect(server.requests.map((r) => r.path.replace(/^.*json-dumps\//, ""))).toEqual([
      "LATEST",
      "20261125-001001/SHA256SUMS",
      "20261125-001001/place.tar.xz",
    ]);
    expect(readdirSync(downloads).sort()).toEqual(["musicbrainz-place.jsonl", "musicbrainz-place.jsonl.about.json"]);
    const served = servedVenues(path);
    expect(SETLIST_IDS.size).toBe(8);
    for (const [name, id] of SETLIST_IDS) {
      if (name === "Knaack-Klub") continue; // closed: not a venue
      expect(served.get(id), name).toMatchObject({
        name,
        url: expect.stringMatching(new RegExp(`^https://www\\.setlist\\.fm/venue/.*-${id}\\.html$`)),
      });
    }
    expect(served.get(SETLIST_IDS.get("Berghain") ?? "")?.city).toBe("Berlin");
    expect(ran.output).toMatch(/musicbrainz-place\.jsonl \(lines\): read 12, kept 10 .*; 7 under their setlist\.fm id/);
  });

  it("downloads nothing again while the dump is current", async () => {
    const [path, downloads, server] = [await servedFile(), newDir(), await dumps()];
    await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    const again = await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    expect(again.error).toBeNull();
    expect(again.output).toContain(
      "The MusicBrainz dump 20261125-001001 is the newest and already downloaded: nothing to download.",
    );
    expect(server.requests.filter((r) => r.path.endsWith("place.tar.xz"))).toHaveLength(1);
  });
});

describe("npm run venues -- musicbrainz, a download that breaks off", () => {
  it("resumes a download that broke off where it broke off", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const stored = () =>
      readdirSync(downloads).some((name) => name.endsWith(".part") && statSync(join(downloads, name)).size > 0);
    const server = await dumps({ breakOnce: { afterBytes: 700, reached: stored } });
    const ran = await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    expect(ran.error).toBeNull();
    expect(ran.output).toMatch(/broke off at 0\.0 MB: resuming/);
    const gets = server.requests.filter((r) => r.path.endsWith("place.tar.xz"));
    // Resumed from what had reached the file when the connection broke (700 bytes sent, perhaps not all written).
    expect(gets.map((r) => r.range ?? null)).toEqual([null, expect.stringMatching(/^bytes=\d+-$/)]);
    const from = Number(/\d+/.exec(gets[1]?.range ?? "")?.[0]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThanOrEqual(700);
    expect(servedVenues(path).has(SETLIST_IDS.get("Tempodrom") ?? "")).toBe(true);
  });
});

describe("npm run venues -- musicbrainz, beside OpenStreetMap", () => {
  it("merges an OpenStreetMap record of the same venue into the place, under its setlist.fm id, found by both sources' names", async () => {
    const [path, downloads, server] = [await servedFile(), newDir(), await dumps()];
    const overpass = await startOverpass({
      elements: (JSON.parse(readFileSync(OVERPASS_ANSWER, "utf8")) as { elements: [] }).elements,
      areas: AREAS,
    });
    closers.push(() => overpass.close());
    expect((await venues(["osm", "Berlin", "--endpoint", overpass.url], path, downloads)).error).toBeNull();
    const ran = await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    expect(ran.error).toBeNull();
    const served = [...servedVenues(path).values()];
    const uber = served.filter((v) => v.name === "Uber Arena");
    expect(uber).toEqual([expect.objectContaining({ id: SETLIST_IDS.get("Uber Arena"), city: "Berlin" })]);
    // OSM's old name of it still finds it.
    const db = new Database(path, { readonly: true });
    const byOldName = db
      .prepare('SELECT v.id FROM venues_fts f JOIN venues v ON v.pos = f.rowid WHERE venues_fts MATCH \'"o2" "world"\'')
      .pluck()
      .all();
    db.close();
    expect(byOldName).toContain(SETLIST_IDS.get("Uber Arena"));
  });
});

describe("npm run venues -- musicbrainz, when it cannot", () => {
  it("deletes an archive that does not match its SHA256SUMS and imports nothing", async () => {
    const [path, downloads, server] = [await servedFile(), newDir(), await dumps({ wrongChecksum: true })];
    const before = versionOf(path);
    const ran = await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    expect(ran.error?.message).toBe(
      "place.tar.xz of dump 20261125-001001 does not match its SHA256SUMS: deleted, nothing imported",
    );
    expect(readdirSync(downloads)).toEqual([]);
    expect(versionOf(path)).toBe(before);
  });

  it("says the disk is full when it is, keeping nothing and importing nothing", async () => {
    const [path, downloads, server] = [await servedFile(), newDir(), await dumps()];
    if (!existsSync("/dev/full")) return;
    symlinkSync("/dev/full", join(downloads, ".20261125-001001-place.tar.xz.part"));
    const before = versionOf(path);
    const ran = await venues(["musicbrainz", "--mirror", server.url], path, downloads);
    expect(ran.error?.message).toBe("the disk is full: free some space and run the command again");
    expect(versionOf(path)).toBe(before);
    expect(readdirSync(downloads).filter((f) => !f.startsWith("."))).toEqual([]);
  });
});
