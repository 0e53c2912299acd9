/**
 * D1 failing, told apart (src/d1/session.ts): a transient failure is retried briefly, then a 503 with
 * Retry-After; an SQL error is a bug, 500, logged with the kind of statement; neither is cached,
 * and no body shows SQL or an exception message. Also the cache failing, and the D1 session of a
 * request (one per miss, rows and version from the same one).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetDataVersion } from "../../src/cache/data-version.ts";
import { callWith, type ErrorJson, getJson, parseXml, TIMESTAMP } from "./helpers.ts";

afterEach(() => {
  vi.restoreAllMocks();
  forgetDataVersion();
});

type Batch = D1DatabaseSession["batch"];

/** The test database, with its sessions' batches and statements passed through `hooks`. */
function wrappedDb(hooks: {
  batch?: (statements: D1PreparedStatement[], real: () => ReturnType<Batch>, call: number) => ReturnType<Batch>;
  sql?: (text: string) => string;
}): { db: D1Database; sessions: string[] } {
  const sessions: string[] = [];
  let calls = 0;
  const db = {
    withSession(constraint?: string) {
      sessions.push(constraint ?? "");
      const session = env.DB.withSession(constraint);
      return {
        prepare: (text: string) => session.prepare(hooks.sql?.(text) ?? text),
        batch: (statements: D1PreparedStatement[]) =>
          hooks.batch ? hooks.batch(statements, () => session.batch(statements), calls++) : session.batch(statements),
        getBookmark: () => session.getBookmark(),
      };
    },
  } as unknown as D1Database;
  return { db, sessions };
}

const failing = (message: string) =>
  wrappedDb({
    batch: () => {
      throw new Error(message);
    },
  }).db;

describe("D1 failing", () => {
  it.each([
    ["D1_ERROR: Network connection lost.", "olympiahalle"],
    ["D1_ERROR: D1 DB is overloaded. Too many requests queued.", "stadthalle"],
    ["D1_ERROR: Failed to parse body as JSON, got: Error: internal error; reference = abc123", "fillmore"],
    ["D1_ERROR: NOSENTRY database is locked: SQLITE_BUSY", "zenith"],
  ])(
    "a transient failure (%s) is retried for 3 s, then 503 with Retry-After, logged, not cached",
    async (message, name) => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const path = `/1.0/search/venues?name=${name}`;
      const started = Date.now();
      const json = await callWith({ DB: failing(message) }, path, { headers: { Accept: "application/json" } });
      expect(json.status).toBe(503);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThan(2500); // it retried for up to 3 s …
      expect(waited).toBeLessThan(4000);
      expect(json.headers.get("Retry-After")).toBe("1");
      expect(json.headers.get("Cache-Control")).toBe("no-store");
      const body = (await json.json()) as ErrorJson;
      expect(body).toMatchObject({ code: 503, status: "Service Unavailable" });
      expect(body.message).not.toMatch(/D1_ERROR|Network|SQLITE|reference/);
      expect(body.timestamp).toMatch(TIMESTAMP);
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(/failed (1\d|2\d) times in \d+ ms \(transient\)/),
        expect.any(Error),
      );

      vi.restoreAllMocks();
      const after = await getJson(path);
      expect(after.status).toBe(200);
      expect(after.headers.get("X-Cache")).toBe("MISS");
    },
    15_000, // the retries alone take 3 s: room for a busy machine
  );

  it("a lock held for 1.5 s is waited out", async () => {
    let lockedUntil = 0;
    const { db } = wrappedDb({
      batch: (_statements, real) => {
        if (lockedUntil === 0) lockedUntil = Date.now() + 1500;
        if (Date.now() < lockedUntil) throw new Error("D1_ERROR: NOSENTRY database is locked: SQLITE_BUSY");
        return real();
      },
    });
    const res = await callWith({ DB: db }, "/1.0/search/cities?name=frankfurt", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { total: number }).total).toBeGreaterThan(0);
  });
});

describe("D1 failing", () => {
  it("a transient failure that passes is answered, as if nothing happened", async () => {
    const { db } = wrappedDb({
      batch: (_statements, real, n) => {
        if (n < 2) throw new Error("D1_ERROR: NOSENTRY database is locked: SQLITE_BUSY");
        return real();
      },
    });
    const res = await callWith({ DB: db }, "/1.0/search/cities?name=frankfurt", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { total: number }).total).toBeGreaterThan(0);
  });

  it("an SQL error from D1 itself is a 500, logged with the statement's kind, in the contract's shape", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    // The real local D1 rejecting a statement: the worker's SQL asks for a table that is not there.
    const { db } = wrappedDb({ sql: (text) => text.replace("FROM venues_fts", "FROM no_such_fts") });
    const path = "/1.0/search/venues?name=hallenstadion";
    const json = await callWith({ DB: db }, path, { headers: { Accept: "application/json" } });
    expect(json.status).toBe(500);
    expect(json.headers.get("Retry-After")).toBeNull();
    expect(json.headers.get("Cache-Control")).toBe("no-store");
    const text = await json.text();
    expect(JSON.parse(text)).toMatchObject({ code: 500, status: "Internal Server Error", message: "internal error" });
    expect(text).not.toMatch(/no_such_fts|SQLITE|SELECT/);
    expect(errors).toHaveBeenCalledWith(
      "D1: venues search failed (not transient: an SQL error is a bug)",
      expect.objectContaining({ message: expect.stringMatching(/no such table: no_such_fts/) }),
    );

    const xml = await callWith({ DB: db }, path, { headers: { Accept: "application/xml" } });
    expect(xml.status).toBe(500);
    const { root } = parseXml(await xml.text());
    expect(root.children.map((c) => c.name)).toEqual(["code", "status", "message", "timestamp"]);

    vi.restoreAllMocks();
    expect((await getJson(path)).status).toBe(200); // nothing was cached
  });

  it("a missing DB binding is a 503", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await callWith({ DB: undefined }, "/1.0/search/cities?name=bern", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("1");
  });
});

describe("D1 failing", () => {
  it("an unexpected exception in the worker is a 500 with a generic message, logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    // D1 answering with something unusable: a fault in our code, not in D1.
    const { db } = wrappedDb({ batch: async () => null as unknown as D1Result[] });
    const res = await callWith({ DB: db }, "/1.0/search/venues?name=weird", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 500, status: "Internal Server Error", message: "internal error" });
    expect(errors).toHaveBeenCalled();
  });
});

describe("the cache failing", () => {
  it("answers from D1 when the cache throws on read and on write", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(caches.default, "match").mockRejectedValue(new Error("cache is down"));
    vi.spyOn(caches.default, "put").mockRejectedValue(new Error("cache is down"));
    const path = "/1.0/search/cities?name=frankfurt&country=DE";
    const first = await callWith({}, path, { headers: { Accept: "application/json" } });
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    expect(((await first.json()) as { total: number }).total).toBeGreaterThan(0);
    expect(errors).toHaveBeenCalledWith("cache write failed", expect.any(Error));

    const xml = await callWith({}, "/1.0/search/cities?name=frankfurt%20oder", {
      headers: { Accept: "application/xml" },
    });
    expect(xml.status).toBe(200);
    expect(errors).toHaveBeenCalledWith("cache lookup failed; answering from D1", expect.any(Error));
  });
});

describe("D1 sessions", () => {
  it("a miss uses one session, first-unconstrained, for the version and the rows; a hit none", async () => {
    const { db, sessions } = wrappedDb({});
    const path = "/1.0/search/cities?name=vaduz&country=LI";
    const miss = await callWith({ DB: db }, path, { headers: { Accept: "application/json" } });
    expect(miss.status).toBe(200);
    expect(miss.headers.get("X-Cache")).toBe("MISS");
    expect(sessions).toEqual(["first-unconstrained"]);
    const version = (
      await env.DB.prepare("SELECT value FROM meta WHERE key = 'data_version'").first<{ value: string }>()
    )?.value;
    expect(miss.headers.get("ETag")).toMatch(new RegExp(`^"${version}-`));
    const hit = await callWith({ DB: db }, path, { headers: { Accept: "application/json" } });
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    expect(sessions).toHaveLength(1);
  });

  it("a fuzzy answer's two round trips share the session", async () => {
    const { db, sessions } = wrappedDb({});
    const res = await callWith({ DB: db }, "/1.0/search/cities?name=zurihc", {
      headers: { Accept: "application/json" },
    });
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    expect(sessions).toEqual(["first-unconstrained"]);
  });

  it("when the data version changes between two round trips, the answer starts again and names the new version", async () => {
    let reads = 0;
    const { db, sessions } = wrappedDb({
      batch: async (_statements, real) => {
        const results = await real();
        // The first round trip sees version "before", every later one the real version.
        if (reads++ === 0) (results[0] as D1Result<{ value: string }>).results[0] = { value: "before" };
        return results;
      },
    });
    const res = await callWith({ DB: db }, "/1.0/search/cities?name=zurihc", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    expect(sessions).toHaveLength(2);
    expect(res.headers.get("ETag")).not.toMatch(/^"before-/);
  });
});
