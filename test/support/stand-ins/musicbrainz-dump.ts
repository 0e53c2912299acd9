/**
 * A stand-in for the MusicBrainz JSON dumps (data.metabrainz.org/pub/musicbrainz/data/json-dumps/)
 * on 127.0.0.1, laid out as musicbrainz-server's admin/RunJSONDump and MBDump.pm make them:
 * `LATEST` ("<folder>\n"), an empty `latest-is-<folder>`, and per folder the `<entity>.tar.xz`
 * files with `MD5SUMS` and `SHA256SUMS` (`<hex> *<file>` per .tar.xz, sorted, as
 * `sha256sum --binary *.tar.xz` prints them). Files are served as nginx serves static files:
 * GET and HEAD, Content-Length, ETag, Last-Modified, `Accept-Ranges: bytes`, a single `Range`
 * answered 206 with Content-Range; folders as nginx autoindex pages.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { listenLocal } from "./listen.ts";

export { buildPlaceTarXz } from "./place-tar.ts";

const BASE = "/pub/musicbrainz/data/json-dumps/";

interface DumpFolder {
  /** The dump's stamp, `YYYYMMDD-HHMMSS`. */
  name: string;
  files: Record<string, Buffer>;
}

export interface MusicBrainzDumpOptions {
  folders: DumpFolder[];
  /** The folder LATEST names (default: the last by name). */
  latest?: string;
  /** SHA256SUMS and MD5SUMS list hashes that do not match the files. */
  wrongChecksum?: boolean;
  /** false: Range is ignored, every GET is a 200 with the whole file (default true). */
  ranges?: boolean;
  /**
   * The first GET of a .tar.xz from byte 0 sends this many body bytes, then the connection is
   * destroyed: once `reached()` says the client has them (a stream that errors drops the chunks
   * it has not yet handed on, so on a busy machine a break at once may leave the client nothing).
   */
  breakOnce?: { afterBytes: number; reached?: () => boolean };
  /** Files answered 404 though the sums list them: "place.tar.xz" in every folder, or "<folder>/place.tar.xz". */
  missing?: string[];
}

interface DumpRequest {
  method: string;
  path: string;
  range: string | undefined;
  userAgent: string | undefined;
  status: number | null;
}

export interface MusicBrainzDumpStandIn {
  /** Base URL, `http://127.0.0.1:PORT/pub/musicbrainz/data/json-dumps/`. */
  url: string;
  requests: DumpRequest[];
  close(): Promise<void>;
}

interface Served {
  bytes: Buffer;
  /** ms since the epoch, whole seconds. */
  mtime: number;
}

/** A dump folder's files are written some hours after its stamp (the stamp is when the dump began). */
function folderTime(name: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/.exec(name);
  const [year, month, day, hour, minute, second] = (m?.slice(1) ?? ["2026", "01", "01", "0", "0", "0"]).map(Number);
  return Date.UTC(year ?? 2026, (month ?? 1) - 1, day, hour, minute, second) + 14 * 3600_000;
}

function sums(files: Record<string, Buffer>, algorithm: "md5" | "sha256", wrong: boolean): string {
  return Object.keys(files)
    .filter((name) => name.endsWith(".tar.xz"))
    .sort()
    .map((name) => {
      const file = files[name] ?? Buffer.alloc(0);
      const bytes = wrong ? Buffer.concat([file, Buffer.from("\0")]) : file;
      return `${createHash(algorithm).update(bytes).digest("hex")} *${name}\n`;
    })
    .join("");
}

/** Every path under BASE with what it serves; folders map to their listing's entries. */
function layout(options: MusicBrainzDumpOptions): { files: Map<string, Served>; dirs: Map<string, string[]> } {
  const latest =
    options.latest ??
    options.folders
      .map((f) => f.name)
      .sort()
      .at(-1) ??
    "";
  const files = new Map<string, Served>();
  const dirs = new Map<string, string[]>([["", []]]);
  const add = (dir: string, name: string, served: Served) => {
    files.set(dir + name, served);
    dirs.get(dir)?.push(name);
  };
  for (const folder of options.folders) {
    const mtime = folderTime(folder.name);
    dirs.get("")?.push(`${folder.name}/`);
    dirs.set(`${folder.name}/`, []);
    for (const [name, bytes] of Object.entries(folder.files)) add(`${folder.name}/`, name, { bytes, mtime });
    for (const [name, algorithm] of [
      ["MD5SUMS", "md5"],
      ["SHA256SUMS", "sha256"],
    ] as const) {
      const text = sums(folder.files, algorithm, options.wrongChecksum === true);
      add(`${folder.name}/`, name, { bytes: Buffer.from(text), mtime });
    }
  }
  add("", "LATEST", { bytes: Buffer.from(`${latest}\n`), mtime: folderTime(latest) });
  add("", `latest-is-${latest}`, { bytes: Buffer.alloc(0), mtime: folderTime(latest) });
  for (const list of dirs.values()) list.sort();
  return { files, dirs };
}

const NOT_FOUND =
  "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n" +
  "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** An nginx autoindex page: name column of 50, date `dd-Mon-yyyy HH:MM`, size right-aligned ("-" for folders). */
function autoindex(path: string, entries: string[], served: (name: string) => Served | undefined): string {
  const rows = entries.map((name) => {
    const file = served(name);
    const d = new Date(file?.mtime ?? folderTime(name.replace(/\/$/, "")));
    const two = (n: number) => String(n).padStart(2, "0");
    const date = `${two(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
    const size = file === undefined ? "-" : String(file.bytes.length);
    return `<a href="${name}">${name}</a>${" ".repeat(Math.max(1, 51 - name.length))}${date} ${size.padStart(19)}\r\n`;
  });
  return (
    `<html>\r\n<head><title>Index of ${path}</title></head>\r\n<body>\r\n` +
    `<h1>Index of ${path}</h1><hr><pre><a href="../">../</a>\r\n${rows.join("")}</pre><hr></body>\r\n</html>\r\n`
  );
}

/** The byte range a `Range: bytes=…` header asks for: one range, or null for the whole file; "bad" if unsatisfiable. */
function rangeOf(header: string | undefined, size: number): [number, number] | null | "bad" {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") return [Math.max(0, size - Number(m[2])), size - 1];
  const start = Number(m[1]);
  if (start >= size) return "bad";
  return [start, m[2] === "" ? size - 1 : Math.min(size - 1, Number(m[2]))];
}

interface State {
  options: MusicBrainzDumpOptions;
  broken: boolean;
}

/** nginx's validators of a static file, and the range it answers (none when ranges are off or If-Range differs). */
function validators(request: IncomingMessage, file: Served, ranges: boolean) {
  const size = file.bytes.length;
  const etag = `"${(file.mtime / 1000).toString(16)}-${size.toString(16)}"`;
  const lastModified = new Date(file.mtime).toUTCString();
  const ifRange = request.headers["if-range"];
  const fresh = ifRange === undefined || ifRange === etag || ifRange === lastModified;
  const headers: Record<string, string> = {
    "Content-Type": "application/octet-stream",
    "Last-Modified": lastModified,
    ETag: etag,
    ...(ranges ? { "Accept-Ranges": "bytes" } : {}),
  };
  return { headers, range: ranges && fresh ? rangeOf(request.headers.range, size) : null };
}

function serveFile(state: State, request: IncomingMessage, response: ServerResponse, path: string, file: Served) {
  const size = file.bytes.length;
  const { headers, range } = validators(request, file, state.options.ranges !== false);
  if (range === "bad") {
    response.writeHead(416, { ...headers, "Content-Range": `bytes */${size}`, "Content-Type": "text/html" });
    return void response.end();
  }
  const [start, end] = range ?? [0, size - 1];
  const body = file.bytes.subarray(start, end + 1);
  response.writeHead(range === null ? 200 : 206, {
    ...headers,
    "Content-Length": String(body.length),
    ...(range === null ? {} : { "Content-Range": `bytes ${start}-${end}/${size}` }),
  });
  if (request.method === "HEAD") return void response.end();
  const breakAfter = state.options.breakOnce?.afterBytes;
  if (breakAfter !== undefined && !state.broken && start === 0 && path.endsWith(".tar.xz")) {
    state.broken = true;
    const reached = state.options.breakOnce?.reached ?? (() => true);
    return void response.write(body.subarray(0, breakAfter), () => void until(reached).then(() => response.destroy()));
  }
  response.end(body);
}

/** Resolves once `condition()` holds, or after 10 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition() && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
}

export async function startMusicBrainzDump(options: MusicBrainzDumpOptions): Promise<MusicBrainzDumpStandIn> {
  const state: State = { options, broken: false };
  const { files, dirs } = layout(options);
  const requests: DumpRequest[] = [];
  const isMissing = (path: string) =>
    (options.missing ?? []).some((m) => (m.includes("/") ? path === m : path.endsWith(`/${m}`)));
  const server = await listenLocal((request, response) => {
    const url = (request.url ?? "/").replace(/\?.*$/, "");
    const entry: DumpRequest = {
      method: request.method ?? "",
      path: url,
      range: request.headers.range,
      userAgent: request.headers["user-agent"],
      status: null,
    };
    requests.push(entry);
    response.once("close", () => (entry.status = response.statusCode));
    const path = url.startsWith(BASE) ? decodeURIComponent(url.slice(BASE.length)) : null;
    const file = path === null || isMissing(path) ? undefined : files.get(path);
    const listing = path === null ? undefined : dirs.get(path);
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { "Content-Type": "text/html", Allow: "GET, HEAD" });
      return void response.end();
    }
    if (file !== undefined) return serveFile(state, request, response, path ?? "", file);
    if (listing !== undefined) {
      response.writeHead(200, { "Content-Type": "text/html" });
      return void response.end(autoindex(url, listing, (name) => files.get(`${path ?? ""}${name}`)));
    }
    response.writeHead(404, { "Content-Type": "text/html" });
    response.end(request.method === "HEAD" ? undefined : NOT_FOUND);
  });
  return { url: `${server.origin}${BASE}`, requests, close: server.close };
}
