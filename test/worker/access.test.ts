import { afterEach, describe, expect, it, vi } from "vitest";
import { RATE_LIMIT_PERIOD_SECONDS } from "../../src/http/access.ts";
import { callWith, type ErrorJson, parseXml, TIMESTAMP } from "./helpers.ts";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const KEY = "k3y-for-the-tests-0123456789";
const OTHER_KEY = "another-valid-key";

afterEach(() => vi.restoreAllMocks());

async function withKeys(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  const hashes = `${await sha256Hex(OTHER_KEY)}, ${await sha256Hex(KEY)}`;
  return callWith({ API_KEY_HASHES: hashes }, path, { ...init, headers });
}

describe("API keys", () => {
  it("without keys configured, no key is needed", async () => {
    const res = await callWith({ API_KEY_HASHES: "" }, "/1.0/search/venues?name=compaq", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(200);
  });

  it("with keys configured, a missing key is 401 and an unknown one 403, in the contract's shape", async () => {
    const missing = await withKeys("/1.0/search/venues?name=compaq", { Accept: "application/json" });
    expect(missing.status).toBe(401);
    const body = (await missing.json()) as ErrorJson;
    expect(body).toMatchObject({ code: 401, status: "Unauthorized" });
    expect(body.message).toMatch(/x-api-key/);
    expect(body.timestamp).toMatch(TIMESTAMP);
    expect(missing.headers.get("Cache-Control")).toBe("no-store");

    const unknown = await withKeys("/1.0/search/venues?name=compaq", {
      Accept: "application/xml",
      "x-api-key": "guess",
    });
    expect(unknown.status).toBe(403);
    const { root } = parseXml(await unknown.text());
    expect(root.name).toBe("error");
    expect(root.children.find((c) => c.name === "status")?.text).toBe("Forbidden");
  });

  it("a configured key is accepted, for any of the configured hashes", async () => {
    for (const key of [KEY, OTHER_KEY, ` ${KEY} `]) {
      const res = await withKeys("/1.0/search/cities?name=vaduz", { Accept: "application/json", "x-api-key": key });
      expect(res.status, key).toBe(200);
    }
  });

  it("keys are checked on every route, but not on a CORS preflight", async () => {
    expect((await withKeys("/nowhere")).status).toBe(401);
    expect((await withKeys("/1.0/search/venues", {}, { method: "POST" })).status).toBe(401);
    const preflight = await withKeys(
      "/1.0/search/venues",
      { "Access-Control-Request-Method": "GET" },
      { method: "OPTIONS" },
    );
    expect(preflight.status).toBe(204);
  });

  it("malformed configured hashes let no key in, and are reported without their values", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await callWith({ API_KEY_HASHES: "not-a-hash,also-bad" }, "/1.0/search/venues", {
      headers: { "x-api-key": "not-a-hash" },
    });
    expect(res.status).toBe(403);
    expect(errors).toHaveBeenCalled();
    expect(JSON.stringify(errors.mock.calls)).not.toMatch(/not-a-hash|also-bad/);
  });
});

describe("API keys", () => {
  it("never logs a key", async () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    await withKeys("/1.0/search/venues?name=compaq", { "x-api-key": KEY });
    await withKeys("/1.0/search/venues?name=compaq", { "x-api-key": "wrong-key-value" });
    await callWith({ API_KEY_HASHES: await sha256Hex(KEY), DB: brokenDb() }, "/1.0/search/venues?name=zz", {
      headers: { "x-api-key": KEY },
    });
    const logged = JSON.stringify(spies.flatMap((s) => s.mock.calls));
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain("wrong-key-value");
  });
});

function brokenDb(): D1Database {
  const fail = () => {
    throw new Error("D1 is down");
  };
  return { prepare: fail, batch: fail, exec: fail, dump: fail, withSession: fail } as unknown as D1Database;
}

/**
 * The limiter counts in windows aligned to the wall clock (a minute, wrangler.toml), so a run of
 * requests that spans a window's end is counted in two. Runs `measure` with a fresh client (its
 * own counter) until one run falls inside one window, with a second's margin either side; after a
 * run that crossed, the next starts once the new window is a second old (quick retries would all
 * fall into the margin around the same window end, before it or after it).
 */
async function inOneWindow<T>(measure: (client: number) => Promise<T>): Promise<T> {
  const windowMs = RATE_LIMIT_PERIOD_SECONDS * 1000;
  const marginMs = 1000;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = Date.now();
    const result = await measure(nextClient++);
    const window = Math.floor((started - marginMs) / windowMs);
    if (window === Math.floor((Date.now() + marginMs) / windowMs)) return result;
    // Wait until the window is a second old: from the margin after a window's start, or from the
    // margin before its end (a run that ended there would cross again at once).
    const intoWindow = Date.now() % windowMs;
    const waitMs =
      intoWindow < marginMs
        ? marginMs - intoWindow
        : intoWindow > windowMs - marginMs
          ? windowMs - intoWindow + marginMs
          : 0;
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  throw new Error("three runs in a row crossed a rate-limit window: the machine is too slow for this test");
}
let nextClient = 1;

describe("rate limits", () => {
  it("answer 429 with Retry-After past the limit, counting cached answers, per client", async () => {
    const path = "/1.0/search/cities?name=vaduz";
    const { limited, served, ip } = await inOneWindow(async (client) => {
      const ip = `203.0.113.${client}`;
      const headers = { Accept: "application/json", "CF-Connecting-IP": ip };
      let limited: Response | undefined;
      let served = 0;
      for (let i = 0; i < 400 && limited === undefined; i++) {
        const res = await callWith({ RATE_LIMIT: "on" }, path, { headers });
        if (res.status === 429) limited = res;
        else {
          expect(res.status).toBe(200);
          served++;
          await res.arrayBuffer();
        }
      }
      return { limited, served, ip };
    });
    expect(limited).toBeDefined();
    expect(served).toBe(300); // wrangler.toml: 300 a minute
    expect(limited?.headers.get("Retry-After")).toBe(String(RATE_LIMIT_PERIOD_SECONDS));
    const body = (await limited?.json()) as ErrorJson;
    expect(body).toMatchObject({ code: 429, status: "Too Many Requests" });

    const otherClient = await callWith({ RATE_LIMIT: "on" }, path, {
      headers: { Accept: "application/json", "CF-Connecting-IP": `${ip}0` },
    });
    expect(otherClient.status).toBe(200);
  }, 15_000);

  it("by default limit remote clients but not this machine's (wrangler dev), unless RATE_LIMIT=on", async () => {
    const path = "/1.0/search/cities?name=zurich";
    /** How many of n requests from one client answer 429 (each client is a fresh counter). */
    const limitedOf = (ipOf: (client: number) => string, setting: string | undefined, n: number) =>
      inOneWindow(async (client) => {
        let limited = 0;
        for (let i = 0; i < n; i++) {
          const res = await callWith({ RATE_LIMIT: setting }, path, {
            headers: { Accept: "application/json", "CF-Connecting-IP": ipOf(client) },
          });
          if (res.status === 429) limited++;
          await res.arrayBuffer();
        }
        return limited;
      });
    expect(await limitedOf(() => "127.0.0.1", undefined, 400)).toBe(0);
    expect(await limitedOf(() => "::1", undefined, 350)).toBe(0);
    expect(await limitedOf((c) => `198.51.100.${c}`, undefined, 350)).toBe(50);
    expect(await limitedOf((c) => `127.0.1.${c}`, "on", 350)).toBe(50);
    expect(await limitedOf((c) => `192.0.2.${c}`, "off", 350)).toBe(0);
  }, 15_000); // a run that crosses a window's end waits up to a second and runs again
});
