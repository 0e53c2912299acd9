/**
 * The MusicBrainz JSON dump stand-in (test/support/stand-ins/musicbrainz-dump.ts) serves its
 * folders as data.metabrainz.org does, and its place.tar.xz unpacks with the system tar.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  buildPlaceTarXz,
  startMusicBrainzDump,
  type MusicBrainzDumpOptions,
} from "../support/stand-ins/musicbrainz-dump.ts";
import { fixture } from "../support/seed.ts";

const LINES = readFileSync(fixture("fetch/mbdump-place.jsonl"), "utf8").split("\n");
const OLD = "20261121-001001";
const NEW = "20261125-001001";
let place: Buffer;
let folders: MusicBrainzDumpOptions["folders"];

beforeAll(async () => {
  place = await buildPlaceTarXz(LINES);
  const older = await buildPlaceTarXz(LINES.slice(0, 3));
  folders = [
    { name: OLD, files: { "place.tar.xz": older } },
    { name: NEW, files: { "place.tar.xz": place, "area.tar.xz": Buffer.from("not really xz") } },
  ];
});

async function dump(options: Partial<MusicBrainzDumpOptions> = {}) {
  const server = await startMusicBrainzDump({ folders, ...options });
  onTestFinished(() => server.close());
  return server;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const get = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
};

describe("MusicBrainz dump stand-in", () => {
  it("names the newest folder in LATEST and lists real SHA-256 sums, sorted, as `<hex> *<file>`", async () => {
    const server = await dump();
    expect(await (await fetch(`${server.url}LATEST`)).text()).toBe(`${NEW}\n`);
    const sums = await (await fetch(`${server.url}${NEW}/SHA256SUMS`)).text();
    const { bytes } = await get(`${server.url}${NEW}/place.tar.xz`);
    expect(sums).toBe(`${sha256(Buffer.from("not really xz"))} *area.tar.xz\n${sha256(bytes)} *place.tar.xz\n`);
    expect(bytes.equals(place)).toBe(true);
    const wrong = await dump({ wrongChecksum: true });
    expect(await (await fetch(`${wrong.url}${NEW}/SHA256SUMS`)).text()).not.toContain(sha256(place));
    const listing = await (await fetch(server.url)).text();
    expect(listing).toMatch(new RegExp(`<a href="${OLD}/">${OLD}/</a> +\\d\\d-Nov-2026 \\d\\d:\\d\\d +-\\r\\n`));
    expect(listing).toContain(`<a href="latest-is-${NEW}">`);
  });

  it("answers HEAD and GET with length, ETag, Last-Modified, and a Range with 206 and the right bytes", async () => {
    const server = await dump();
    const url = `${server.url}${NEW}/place.tar.xz`;
    const head = await fetch(url, { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe(String(place.length));
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    expect(head.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(head.headers.get("last-modified")).toBe("Wed, 25 Nov 2026 14:10:01 GMT");
    const part = await get(url, { Range: "bytes=100-" });
    expect(part.response.status).toBe(206);
    expect(part.response.headers.get("content-range")).toBe(`bytes 100-${place.length - 1}/${place.length}`);
    expect(part.bytes.equals(place.subarray(100))).toBe(true);
    expect((await get(url, { Range: `bytes=${place.length}-` })).response.status).toBe(416);
    const stale = await get(url, { Range: "bytes=100-", "If-Range": '"0-0"' });
    expect([stale.response.status, stale.bytes.length]).toEqual([200, place.length]);
    const noRanges = await get(`${(await dump({ ranges: false })).url}${NEW}/place.tar.xz`, { Range: "bytes=100-" });
    expect([noRanges.response.status, noRanges.bytes.length]).toEqual([200, place.length]);
  });

  it("breaks the first download mid-way, resumes it with a Range, and answers 404 for missing files", async () => {
    const server = await dump({ breakOnce: { afterBytes: 500 }, missing: [`${OLD}/place.tar.xz`] });
    const url = `${server.url}${NEW}/place.tar.xz`;
    const first = await fetch(url);
    expect(first.headers.get("content-length")).toBe(String(place.length));
    const received: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of first.body ?? []) received.push(Buffer.from(chunk));
      })(),
    ).rejects.toThrow();
    const start = Buffer.concat(received).length;
    expect(start).toBe(500);
    const rest = await get(url, { Range: `bytes=${start}-` });
    expect(Buffer.concat([...received, rest.bytes]).equals(place)).toBe(true);
    expect((await fetch(`${server.url}${OLD}/place.tar.xz`)).status).toBe(404);
    expect(server.requests.map((r) => [r.range ?? null, r.status])).toEqual([
      [null, 200],
      ["bytes=500-", 206],
      [null, 404],
    ]);
  });
});

describe("buildPlaceTarXz", () => {
  it("makes a tar.xz that the system tar unpacks: the dump's members in order, mbdump/place the lines", () => {
    const dir = mkdtempSync(join(tmpdir(), "vcs-place-tar-"));
    writeFileSync(join(dir, "place.tar.xz"), place);
    expect(execFileSync("tar", ["-tJf", "place.tar.xz"], { cwd: dir, encoding: "utf8" }).split("\n")).toEqual([
      "TIMESTAMP",
      "COPYING",
      "README",
      "REPLICATION_SEQUENCE",
      "SCHEMA_SEQUENCE",
      "mbdump/place",
      "JSON_DUMPS_SCHEMA_NUMBER",
      "",
    ]);
    execFileSync("tar", ["-xJf", "place.tar.xz"], { cwd: dir });
    expect(readFileSync(join(dir, "mbdump/place"), "utf8")).toBe(LINES.join("\n"));
    expect(readFileSync(join(dir, "JSON_DUMPS_SCHEMA_NUMBER"), "utf8")).toBe("1\n");
  });
});
