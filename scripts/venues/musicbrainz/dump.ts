/**
 * `npm run venues -- musicbrainz`: the places of the newest MusicBrainz JSON dump
 * (docs/import.md#fetching-real-venues). The mirror's `LATEST` names the newest dump folder; its
 * `place.tar.xz` is downloaded with progress and resumed where a download broke off (HTTP Range),
 * checked against the folder's SHA256SUMS (a mismatch deletes it), and `mbdump/place` streamed out
 * of it into data/venues/. A second run downloads nothing while the kept dump is the newest.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Progress } from "../../import/progress.ts";
import { brokenBody, countedBody, FetchError, hostOf, megabytes, request, sleep } from "../http.ts";
import { diskError } from "../osm/fetch.ts";
import { aboutOf, downloadPath, discardPartial, keep, LICENCES, type Download } from "../store.ts";
import { extractPlaces } from "./extract.ts";

const PLACES_FILE = "musicbrainz-place.jsonl";
const ARCHIVE = "place.tar.xz";
const DUMP_NAME = /^\d{8}-\d{6}$/;

export interface DumpFetch {
  /** The json-dumps folder, e.g. https://data.metabrainz.org/pub/musicbrainz/data/json-dumps/ */
  mirror: string;
  userAgent: string;
  dir: string;
  /** Times a broken download is resumed. */
  retries: number;
  say: (line: string) => void;
  progress: Progress;
}

const under = (f: DumpFetch, path: string) =>
  new URL(path, f.mirror.endsWith("/") ? f.mirror : `${f.mirror}/`).toString();

async function text(f: DumpFetch, path: string): Promise<string> {
  const url = under(f, path);
  const response = await request(url, { headers: { "User-Agent": f.userAgent }, timeoutMs: 60_000 });
  if (!response.ok)
    throw new FetchError(`${hostOf(url)} answered ${response.status} ${response.statusText} for ${path}`);
  return response.text();
}

/** The SHA-256 SUMS file's hash of `file` (lines `<hex> *<file>`, as sha256sum --binary writes them). */
function sumOf(sums: string, file: string): string | null {
  for (const line of sums.split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m?.[2] === file) return m[1] ?? null;
  }
  return null;
}

/** The newest dump's places, or the kept ones when they are the newest already. */
export async function fetchMusicBrainz(f: DumpFetch): Promise<{ download: Download; current: boolean }> {
  const latest = (await text(f, "LATEST")).trim();
  if (!DUMP_NAME.test(latest))
    throw new FetchError(`${hostOf(f.mirror)}: LATEST does not name a dump ("${latest.slice(0, 40)}")`);
  const kept = aboutOf(f.dir, PLACES_FILE);
  if (kept?.dump === latest) {
    f.say(`The MusicBrainz dump ${latest} is the newest and already downloaded: nothing to download.`);
    return { download: { file: join(f.dir, PLACES_FILE), about: kept }, current: true };
  }
  const expected = sumOf(await text(f, `${latest}/SHA256SUMS`), ARCHIVE);
  if (expected === null) throw new FetchError(`${hostOf(f.mirror)}: ${latest}/SHA256SUMS lists no ${ARCHIVE}`);
  const archive = join(f.dir, `.${latest}-${ARCHIVE}.part`);
  dropOtherArchives(f.dir, archive);
  await download(f, `${latest}/${ARCHIVE}`, archive);
  const sha256 = await fileSha256(archive);
  if (sha256 !== expected) {
    rmSync(archive, { force: true });
    throw new FetchError(`${ARCHIVE} of dump ${latest} does not match its SHA256SUMS: deleted, nothing imported`);
  }
  try {
    f.progress.phase(`extracting mbdump/place from ${ARCHIVE}`);
    const places = await extractPlaces(archive, downloadPath(f.dir, PLACES_FILE).partial, (n) => f.progress.tick(n));
    f.progress.end();
    const about = {
      source: "musicbrainz" as const,
      licence: LICENCES.musicbrainz,
      dump: latest,
      sha256,
      dataTime: latest,
      endpoint: f.mirror,
      fetchedAt: new Date().toISOString(),
      counts: { places, bytes: statSync(archive).size },
    };
    const file = keep(f.dir, PLACES_FILE, about);
    rmSync(archive, { force: true });
    return { download: { file, about }, current: false };
  } catch (error) {
    discardPartial(f.dir, PLACES_FILE);
    throw error instanceof Error ? diskError(error) : error;
  }
}

/** Archives of older dumps, half downloaded: of no use once a newer dump is out. */
function dropOtherArchives(dir: string, keepPath: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.endsWith(`-${ARCHIVE}.part`) && join(dir, name) !== keepPath) rmSync(join(dir, name), { force: true });
  }
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * `path` of the mirror into `file`, resuming from what `file` already holds (a Range request; a
 * server that ignores it sends the whole file again), up to `retries` times when it breaks off.
 */
async function download(f: DumpFetch, path: string, file: string): Promise<void> {
  const url = under(f, path);
  f.progress.phase(`downloading ${path} from ${hostOf(url)}`);
  for (let attempt = 0; ; attempt++) {
    try {
      await downloadRest(f, url, file);
      break;
    } catch (error) {
      if (error instanceof FetchError || (error instanceof Error && "code" in error && error.code === "ENOSPC"))
        throw error instanceof FetchError ? error : diskError(error);
      if (attempt >= f.retries) throw brokenBody(hostOf(url), error);
      f.say(`the download of ${path} broke off at ${megabytes(sizeOf(file))}: resuming`);
      await sleep(1000 * (attempt + 1));
    }
  }
  f.progress.end();
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** One request for what `file` does not hold yet, appended to it (or the whole, when the server sends it whole). */
async function downloadRest(f: DumpFetch, url: string, file: string): Promise<void> {
  const have = sizeOf(file);
  const range: Record<string, string> = have > 0 ? { Range: `bytes=${have}-` } : {};
  const response = await request(url, { headers: { "User-Agent": f.userAgent, ...range } });
  if (response.status === 416) return; // nothing after what we have: complete
  if (response.status !== 200 && response.status !== 206)
    throw new FetchError(
      `${hostOf(url)} answered ${response.status} ${response.statusText} for ${new URL(url).pathname}`,
    );
  const partial = response.status === 206;
  const from = partial ? have : 0;
  const total = from + Number(response.headers.get("Content-Length") ?? 0);
  if (have > 0) f.say(partial ? `resuming at ${megabytes(have)}` : "the server sends the whole file again");
  const body = countedBody(response, (n) => f.progress.tick(from + n, `of ${megabytes(total)}`));
  await pipeline(body, createWriteStream(file, { flags: partial ? "a" : "w" }));
}
