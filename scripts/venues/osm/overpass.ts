/**
 * One Overpass API query, asked as the API's operators ask (docs/import.md#etiquette): a
 * User-Agent that names the project, one request at a time (the caller awaits each), the
 * server's `/api/status` read before the query and after a refusal, a 429 or 504 waited out
 * (Retry-After, else the slot time the status gives, at least `pauseAfterRefusalMs`) and retried
 * at most `retries` times. The answer is streamed: each element handed on as it arrives, the bytes
 * and elements counted. A runtime error in the answer's `remark` (the query timed out or ran out
 * of memory) is an area too large for the server (TooLarge), which the caller cuts into tiles.
 */
import { pick } from "stream-json/filters/pick.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import { brokenBody, countedBody, FetchError, hostOf, request, sleep } from "../http.ts";
import { isStatus, parseStatus, waitMs } from "./status.ts";

export interface OverpassOptions {
  /** The API's base, e.g. https://overpass-api.de/api/ (status and interpreter are under it). */
  endpoint: string;
  userAgent: string;
  /** Times a refused query (429, 504) is asked again. */
  retries: number;
  pauseAfterRefusalMs: number;
  /** The query's [timeout:…], seconds: the request waits a minute more. */
  timeoutSeconds: number;
  /** A line for the user (waiting, retrying). */
  say: (line: string) => void;
  onProgress: (bytes: number, elements: number) => void;
}

/** The server refused the query as too large for it (a runtime error in the answer's remark). */
export class TooLarge extends Error {
  override name = "TooLarge";
}

/** What an Overpass answer says of its data (`osm3s`): the time of the OSM data, its licence. */
export interface Osm3s {
  timestamp_osm_base?: string;
  copyright?: string;
}

const url = (options: OverpassOptions, path: "status" | "interpreter") =>
  new URL(path, options.endpoint.endsWith("/") ? options.endpoint : `${options.endpoint}/`).toString();

/** How long the server asks us to wait now (0 when a slot is free, or when it gives no status). */
async function statusWait(options: OverpassOptions): Promise<number> {
  const response = await request(url(options, "status"), {
    headers: { "User-Agent": options.userAgent },
    timeoutMs: 30_000,
  });
  const text = await response.text();
  return response.ok && isStatus(text) ? waitMs(parseStatus(text), new Date()) : 0;
}

/** The error text of an Overpass HTML page (`<strong …>Error</strong>: …`), for a message. */
function htmlError(html: string): string {
  const m = /Error<\/strong>:\s*([^<]*)/.exec(html);
  return (m?.[1] ?? html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim().slice(0, 200);
}

/**
 * Runs `query`, handing each element to `onElement`; returns what the answer says of its data.
 * Throws TooLarge for a runtime error, FetchError for anything else (one line).
 */
export async function runQuery(
  query: string,
  options: OverpassOptions,
  onElement: (element: Record<string, unknown>) => void,
): Promise<Osm3s> {
  const host = hostOf(options.endpoint);
  for (let attempt = 0; ; attempt++) {
    const wait = await statusWait(options);
    if (wait > 0) options.say(`${host} has no free slot: waiting ${Math.ceil(wait / 1000)} s, as its status asks`);
    await sleep(wait);
    const response = await request(url(options, "interpreter"), {
      method: "POST",
      headers: { "User-Agent": options.userAgent, Accept: "application/json" },
      body: new URLSearchParams({ data: query }),
      timeoutMs: (options.timeoutSeconds + 60) * 1000,
    });
    if (response.status === 200) return readAnswer(response, options, onElement);
    const text = await response.text();
    if (response.status !== 429 && response.status !== 504) {
      throw new FetchError(`${host} answered ${response.status} ${response.statusText}: ${htmlError(text)}`);
    }
    if (attempt >= options.retries) {
      throw new FetchError(
        `${host} refused the query ${attempt + 1} times (${response.status} ${response.statusText}): try again later, or another --endpoint`,
      );
    }
    const pause = Math.max(retryAfterMs(response) ?? (await statusWait(options)), options.pauseAfterRefusalMs);
    options.say(
      `${host} answered ${response.status} ${response.statusText}: waiting ${Math.ceil(pause / 1000)} s (try ${attempt + 2} of ${options.retries + 1})`,
    );
    await sleep(pause);
  }
}

/** Retry-After in seconds or as a date, in milliseconds from now. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get("Retry-After");
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** An answer's elements, its osm3s and its remark, streamed; see runQuery. */
async function readAnswer(
  response: Response,
  options: OverpassOptions,
  onElement: (element: Record<string, unknown>) => void,
): Promise<Osm3s> {
  const host = hostOf(options.endpoint);
  const type = response.headers.get("Content-Type") ?? "";
  if (!type.includes("json")) {
    throw new FetchError(
      `${host} did not answer Overpass JSON (${type || "no content type"}): ${htmlError(await response.text())}`,
    );
  }
  const { osm3s, remark } = await streamedAnswer(response, options, onElement).catch((error: unknown) => {
    throw error instanceof FetchError ? error : cutShort(host, error);
  });
  if (remark !== null && /runtime error/i.test(remark)) throw new TooLarge(remark);
  if (osm3s === null) throw new FetchError(`${host} answered JSON that is not an Overpass answer (no osm3s)`);
  return osm3s;
}

/** The answer's elements handed on as they arrive (bytes and elements counted), its osm3s and remark. */
async function streamedAnswer(
  response: Response,
  options: OverpassOptions,
  onElement: (element: Record<string, unknown>) => void,
): Promise<{ osm3s: Osm3s | null; remark: string | null }> {
  let bytes = 0;
  let elements = 0;
  const found: { osm3s: Osm3s | null; remark: string | null } = { osm3s: null, remark: null };
  const body = countedBody(response, (n) => options.onProgress((bytes = n), elements));
  const picked = pick.withParserAsStream({ filter: /^(elements\.\d+|osm3s|remark)$/ });
  const values = body.pipe(picked).pipe(streamValues.asStream());
  // pipe() does not pass errors on: a broken body or a parse error ends the last stream with it.
  for (const stage of [body, picked]) stage.on("error", (e: Error) => values.destroy(e));
  for await (const { value } of values as AsyncIterable<{ value: unknown }>) {
    if (typeof value === "string") found.remark = value;
    else if (value !== null && typeof value === "object" && "type" in value) {
      onElement(value as Record<string, unknown>);
      options.onProgress(bytes, ++elements);
    } else if (value !== null && typeof value === "object") found.osm3s = value as Osm3s;
  }
  return found;
}

function cutShort(host: string, error: unknown): FetchError {
  const message = error instanceof Error ? error.message : String(error);
  if (/terminated|socket|ECONNRESET|aborted/i.test(message)) return brokenBody(host, error);
  return new FetchError(`the answer of ${host} is cut short or not JSON (${message.slice(0, 120)})`);
}
