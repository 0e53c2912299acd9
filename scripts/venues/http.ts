/**
 * HTTP for the downloads: the User-Agent that names the project and where it lives (public servers
 * ask for it), failures as one line each (FetchError), and a response body read as a stream with
 * its bytes counted.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { ROOT } from "../tools/project.ts";

/** A download that failed, with a message meant for the user as is (one line). */
export class FetchError extends Error {
  override name = "FetchError";
}

/** A private or local host name or address, which names no place on the public web. */
const PRIVATE_HOST =
  /^(localhost|.*\.(local|localhost|internal|lan|home\.arpa)|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|0\.0\.0\.0|\[.*\])$/i;

/**
 * A public http(s) address of the project from a homepage or a git remote, or null: an scp-style
 * or ssh:// remote of a public host becomes its https address; a folder, a file:// URL, a host
 * without a dot or on a private network give nothing; user names and tokens in it are left out.
 */
export function publicHome(address: string): string | null {
  const scp = /^(?:[\w.-]+@)?([\w.-]+\.[\w-]+):(?!\/)(.+)$/.exec(address.trim());
  const candidate =
    scp === null ? address.trim().replace(/^(?:ssh|git):\/\//, "https://") : `https://${scp[1]}/${scp[2]}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (!url.hostname.includes(".") || PRIVATE_HOST.test(url.hostname)) return null;
  const path = url.pathname.replace(/\.git$/, "").replace(/\/$/, "");
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * Where this copy of the project lives, as public servers may be told: package.json's homepage,
 * else the git remote it was cloned from, when either is a public http(s) address. A clone of a
 * folder has its path as remote, which is not sent (nor a remote with a token in it).
 */
function home(): string | null {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { homepage?: string };
  if (pkg.homepage !== undefined) return publicHome(pkg.homepage);
  try {
    const remote = execFileSync("git", ["config", "--get", "remote.origin.url"], { cwd: ROOT, encoding: "utf8" });
    return publicHome(remote);
  } catch {
    return null;
  }
}

/** `venue-city-search/0.1.0 (+https://github.com/…; contact)`: the project, its version, where it lives. */
export function userAgent(contact?: string): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
  const about = [home(), contact].filter((x): x is string => x !== null && x !== undefined && x !== "");
  return `${pkg.name}/${pkg.version}${about.length > 0 ? ` (+${about.join("; ")})` : ""}`;
}

/** The host of a URL, for messages. */
export const hostOf = (url: string): string => new URL(url).host;

/** What a failed fetch() was: a refused connection, an unknown host, a timeout … in a few words. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause !== null && typeof cause === "object" && "code" in cause ? String(cause.code) : "";
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "unknown host (no network?)",
    EAI_AGAIN: "the host cannot be looked up (no network?)",
    ECONNRESET: "the connection was reset",
    ETIMEDOUT: "the connection timed out",
    UND_ERR_SOCKET: "the connection broke",
  };
  return known[code] ?? (cause instanceof Error ? cause.message : String(cause));
}

/** fetch() whose network failures are one FetchError line naming the server. */
export async function request(url: string, init: RequestInit & { timeoutMs?: number }): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  try {
    return await fetch(url, {
      ...rest,
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    });
  } catch (error) {
    throw new FetchError(`cannot reach ${hostOf(url)}: ${networkReason(error)}`);
  }
}

/** A response's body as a Node stream that counts its bytes into `onBytes`. */
export function countedBody(response: Response, onBytes: (total: number) => void): Readable {
  const body = response.body;
  async function* counted() {
    if (body === null) return;
    let total = 0;
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      onBytes((total += chunk.length));
      yield chunk;
    }
  }
  return Readable.from(counted(), { objectMode: false });
}

/** A broken body stream as one line. */
export const brokenBody = (host: string, error: unknown): FetchError =>
  new FetchError(`the download from ${host} broke off: ${networkReason(error)}`);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** 12.3 MB */
export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
