/**
 * A stand-in for the Overpass API (overpass-api.de/api/) on 127.0.0.1, answering as its source
 * and documentation say (drolbr/Overpass-API: dispatch/public_status.cc, dispatch/web_query.cc,
 * frontend/basic_formats.cc, output_formats/output_json.cc, html/command_line.html):
 *
 * - `GET /api/status`: the status text, line 5 the slots line (osmnx reads it there).
 * - `POST /api/interpreter` with form field `data` (or the query as the raw body; `GET ?data=`
 *   too): the QL subset of overpass-ql.ts, answered as JSON streamed in chunks; a parse error is a
 *   400 HTML page; too large an extent is a 200 with no elements and a runtime-error `remark`;
 *   429 and 504 are HTML pages, never with Retry-After unless the test asks for one.
 * - No User-Agent: 406, as overpass-api.de answers since April 2026 (Overpass-API issue #791).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerText, evaluate, type AreaBoxes, type OverpassElement } from "./overpass-answer.ts";
import { parseQuery, QlError, type Query } from "./overpass-ql.ts";
import { bodyText, listenLocal, sleep } from "./listen.ts";

export type { OverpassElement } from "./overpass-answer.ts";

export interface OverpassOptions {
  /** The stand-in's database: nodes with lat/lon, ways and relations with center. */
  elements?: OverpassElement[];
  /** ISO 3166-1 or 3166-2 code → [south, west, north, east]: the areas `area["ISO3166-1"="DE"]` finds. */
  areas?: AreaBoxes;
  /** A query searching more square degrees than this (its boxes and areas intersected) fails at runtime. */
  maxExtentDeg2?: number;
  /** How it fails: "timeout" (default) or "memory". */
  tooLarge?: "timeout" | "memory";
  /** The first n interpreter requests that parse get 429; /api/status meanwhile shows blocked slots. */
  rateLimited?: number;
  /** How long a 429 blocks the slots on /api/status, in seconds (default 1). */
  slotSeconds?: number;
  /** Send Retry-After with each 429 (the real server never does). */
  retryAfterSeconds?: number;
  /** The next n interpreter requests (after the rate-limited ones) get 504. */
  gatewayTimeouts?: number;
  /** "json" (default); "html": a 200 text/html page; "truncated": the JSON cut mid-way, the connection ended. */
  answer?: "json" | "html" | "truncated";
  /** Waited before each interpreter answer, as a query's run time. */
  delayMs?: number;
}

interface OverpassRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
  /** The interpreter's query text, decoded; null for other paths. */
  query: string | null;
  status: number | null;
  /** Date.now() when the request came, and when its response ended. */
  startedAt: number;
  endedAt: number | null;
}

export interface OverpassStandIn {
  /** Base URL, `http://127.0.0.1:PORT/api/`. */
  url: string;
  requests: OverpassRequest[];
  /** The most interpreter requests in flight at once. */
  readonly maxConcurrent: number;
  close(): Promise<void>;
}

const RATE_LIMIT = 2;
const CHUNKS = 4;
const CHUNK_DELAY_MS = 10;
const DISPATCHER = "open64: 0 Success /osm3s_osm_base Dispatcher_Client::request_read_and_idx";
const RATE_LIMITED = `runtime error: ${DISPATCHER}::rate_limited. Please check /api/status for the quota of your IP address.`;
const TOO_BUSY = `runtime error: ${DISPATCHER}::timeout. The server is probably too busy to handle your request.`;
const REASONS: Record<number, string> = {
  200: "OK",
  400: "Bad Request",
  429: "Too Many Requests",
  504: "Gateway Timeout",
};

/** basic_formats.cc's page around error messages. */
function htmlPage(errors: string[]): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"\n' +
    '    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n' +
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">\n' +
    "<head>\n" +
    '  <meta http-equiv="content-type" content="text/html; charset=utf-8" lang="en"/>\n' +
    "  <title>OSM3S Response</title>\n" +
    "</head>\n<body>\n\n" +
    "<p>The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.</p>\n" +
    errors.map((e) => `<p><strong style="color:#FF0000">Error</strong>: ${escape(e)} </p>\n`).join("") +
    "\n</body>\n</html>\n"
  );
}

function sendHtml(response: ServerResponse, status: number, errors: string[], extra: Record<string, string> = {}) {
  response.writeHead(status, REASONS[status], { "Content-type": "text/html; charset=utf-8", ...extra });
  response.end(htmlPage(errors));
}

/** `%FT%TZ`, as the status page and JSON timestamps print times. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The query of a request: between `data=` and the next `&`, URL-decoded; without `data=`, the whole text. */
function queryText(raw: string): string {
  const at = raw.indexOf("data=");
  if (at === -1) return raw;
  const end = raw.indexOf("&", at);
  return decodeURIComponent(raw.slice(at + 5, end === -1 ? undefined : end).replace(/\+/g, " "));
}

/** The runtime error of a query searching too large an extent, as web_query.cc words it. */
function tooLargeRemark(query: Query, line: number, extent: number, options: OverpassOptions): string {
  if (options.tooLarge === "memory") {
    const mb = Math.ceil(((query.maxsize / 1048576) * extent) / (options.maxExtentDeg2 ?? extent));
    return `runtime error: Query ran out of memory in "query" at line ${line}. It would need at least ${mb} MB of RAM to continue.`;
  }
  return `runtime error: Query timed out in "query" at line ${line} after ${query.timeout} seconds.`;
}

/** The answer in several chunks, a little apart (a client can show progress); or its first half, then a cut. */
async function stream(response: ServerResponse, body: string, truncated: boolean): Promise<void> {
  response.writeHead(200, { "Content-type": "application/json" });
  const bytes = Buffer.from(body);
  const end = truncated ? Math.floor(bytes.length / 2) : bytes.length;
  const size = Math.ceil(end / CHUNKS);
  for (let at = 0; at < end && !response.destroyed; at += size) {
    response.write(bytes.subarray(at, Math.min(end, at + size)));
    await sleep(CHUNK_DELAY_MS);
  }
  if (truncated) response.destroy();
  else response.end();
}

interface Running {
  pid: number;
  maxsize: number;
  timeout: number;
  start: number;
}

/** /api/status as public_status.cc writes it. */
function statusText(now: number, client: string, blockedUntil: number, running: Running[]): string {
  const ip = client
    .replace(/^::ffff:/, "")
    .split(".")
    .map(Number);
  const token = ip.length === 4 ? ip.reduce((n, part) => n * 256 + part, 0) : 0;
  const blocked = now < blockedUntil ? Math.max(0, RATE_LIMIT - running.length) : 0;
  const free = RATE_LIMIT - blocked - running.length;
  // Times are whole seconds (time_t): a slot frees by the printed second.
  const freedAt = Math.ceil(blockedUntil / 1000) * 1000;
  const seconds = (freedAt - Math.floor(now / 1000) * 1000) / 1000;
  return [
    `Connected as: ${token}`,
    `Current time: ${isoSeconds(now)}`,
    "Announced endpoint: none",
    `Rate limit: ${RATE_LIMIT}`,
    ...(free > 0 ? [`${free} slots available now.`] : []),
    ...Array.from({ length: blocked }, () => `Slot available after: ${isoSeconds(freedAt)}, in ${seconds} seconds.`),
    "Currently running queries (pid, space limit, time limit, start time):",
    ...running.map((r) => `${r.pid}\t${r.maxsize}\t${r.timeout}\t${isoSeconds(r.start)}`),
    "",
  ].join("\n");
}

interface State {
  options: OverpassOptions;
  requests: OverpassRequest[];
  running: Set<Running>;
  inFlight: number;
  maxConcurrent: number;
  /** Interpreter requests that parsed, so far: the first ones are the rate-limited and gateway-timeout ones. */
  answered: number;
  blockedUntil: number;
  pid: number;
}

/** A 429 or 504 when this request is one of the first ones the test wants refused; whether it was. */
function refused(state: State, response: ServerResponse): boolean {
  const { rateLimited = 0, gatewayTimeouts = 0, slotSeconds = 1, retryAfterSeconds } = state.options;
  const n = state.answered++;
  if (n < rateLimited) {
    state.blockedUntil = Date.now() + slotSeconds * 1000;
    const retry: Record<string, string> =
      retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) };
    sendHtml(response, 429, [RATE_LIMITED], retry);
    return true;
  }
  if (n >= rateLimited + gatewayTimeouts) return false;
  sendHtml(response, 504, [TOO_BUSY]);
  return true;
}

async function interpreter(state: State, request: IncomingMessage, response: ServerResponse, record: OverpassRequest) {
  const { options } = state;
  const raw = request.method === "GET" ? (request.url ?? "").replace(/^[^?]*\??/, "") : await bodyText(request);
  record.query = queryText(raw);
  let query: Query;
  try {
    query = parseQuery(record.query);
  } catch (error) {
    if (error instanceof QlError) return sendHtml(response, 400, [error.message]);
    throw error;
  }
  const run = { pid: ++state.pid, maxsize: query.maxsize, timeout: query.timeout, start: Date.now() };
  state.running.add(run);
  response.once("close", () => state.running.delete(run));
  await sleep(options.delayMs ?? 0);
  if (refused(state, response)) return;
  if (options.answer === "html") return sendHtml(response, 200, []);
  const found = evaluate(query, options.elements ?? [], options.areas ?? {});
  const tooLarge = found.largest.extent > (options.maxExtentDeg2 ?? Infinity);
  const remark = tooLarge ? tooLargeRemark(query, found.largest.line, found.largest.extent, options) : null;
  const body = answerText(tooLarge ? [] : found.elements, query.out, found.usedAreas, remark);
  await stream(response, body, options.answer === "truncated");
}

function record(state: State, request: IncomingMessage, response: ServerResponse): OverpassRequest {
  const entry: OverpassRequest = {
    method: request.method ?? "",
    path: (request.url ?? "/").replace(/\?.*$/, ""),
    userAgent: request.headers["user-agent"],
    query: null,
    status: null,
    startedAt: Date.now(),
    endedAt: null,
  };
  state.requests.push(entry);
  response.once("close", () => {
    entry.status = response.statusCode;
    entry.endedAt = Date.now();
  });
  return entry;
}

async function route(state: State, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const entry = record(state, request, response);
  if (request.headers.origin !== undefined) {
    response.setHeader("Access-Control-Allow-Origin", "*");
    response.setHeader("Access-Control-Max-Age", "600");
  }
  if (entry.userAgent === undefined) {
    response.writeHead(406, { "Content-Type": "text/plain; charset=utf-8" });
    return void response.end("Not Acceptable: please send a User-Agent that identifies your script.\n");
  }
  if (entry.path === "/api/status" && request.method === "GET") {
    const text = statusText(Date.now(), request.socket.remoteAddress ?? "", state.blockedUntil, [...state.running]);
    response.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "Access-Control-Allow-Origin": "*" });
    return void response.end(text);
  }
  if (entry.path === "/api/interpreter" && (request.method === "POST" || request.method === "GET")) {
    state.inFlight++;
    state.maxConcurrent = Math.max(state.maxConcurrent, state.inFlight);
    response.once("close", () => state.inFlight--);
    return interpreter(state, request, response, entry);
  }
  response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
  response.end("Not found\n");
}

export async function startOverpass(options: OverpassOptions = {}): Promise<OverpassStandIn> {
  const state: State = {
    options,
    requests: [],
    running: new Set(),
    inFlight: 0,
    maxConcurrent: 0,
    answered: 0,
    blockedUntil: 0,
    pid: 20000,
  };
  const server = await listenLocal((request, response) => route(state, request, response));
  return {
    url: `${server.origin}/api/`,
    requests: state.requests,
    get maxConcurrent() {
      return state.maxConcurrent;
    },
    close: server.close,
  };
}
