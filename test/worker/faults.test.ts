import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetDataVersion } from "../../src/data-version";
import { call, callWith, type ErrorJson, getJson, parseXml, TIMESTAMP } from "./helpers";

afterEach(() => vi.restoreAllMocks());

/** A D1 binding whose every call fails, as when the database is unreachable. */
function failingDb(message = "D1_ERROR: Network connection lost."): D1Database {
  const fail = () => {
    throw new Error(message);
  };
  const statement = { bind: () => statement, first: fail, all: fail, raw: fail, run: fail };
  return { prepare: () => statement, batch: fail, exec: fail, dump: fail, withSession: fail } as unknown as D1Database;
}

describe("D1 unavailable", () => {
  it.each([
    ["while reading the data version", true, "olympiahalle"],
    ["while searching", false, "hallenstadion"],
  ])("answers 503 in the contract's shape %s, logs it, and caches nothing", async (_when, versionUnknown, name) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    if (versionUnknown) forgetDataVersion();
    else await (await getJson("/1.0/search/cities?name=vaduz")).arrayBuffer(); // the version is remembered
    const path = `/1.0/search/venues?name=${name}`;

    const json = await callWith({ DB: failingDb() }, path, { headers: { Accept: "application/json" } });
    expect(json.status).toBe(503);
    expect(json.headers.get("Cache-Control")).toBe("no-store");
    const body = (await json.json()) as ErrorJson;
    expect(body).toMatchObject({ code: 503, status: "Service Unavailable" });
    expect(body.message).not.toMatch(/D1_ERROR|Network/);
    expect(body.timestamp).toMatch(TIMESTAMP);

    const xml = await callWith({ DB: failingDb("no such table: venues") }, path, {
      headers: { Accept: "application/xml" },
    });
    expect(xml.status).toBe(503);
    const { root } = parseXml(await xml.text());
    expect(root.children.map((c) => c.name)).toEqual(["code", "status", "message", "timestamp"]);
    expect(errors).toHaveBeenCalled();

    vi.restoreAllMocks();
    const after = await getJson(path);
    expect(after.status).toBe(200);
    expect(after.headers.get("X-Cache")).toBe("MISS");
  });
});

describe("cache API failing", () => {
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

describe("the net under the net", () => {
  it("an unexpected exception is a 500 with a generic message, logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const db = failingDb();
    // A D1 binding that answers with something unusable: a fault in our code, not in D1.
    const weird = { ...db, prepare: () => ({ bind: () => ({ all: async () => null }) }) } as unknown as D1Database;
    forgetDataVersion();
    const versionDb = {
      prepare: (sql: string) =>
        sql.includes("data_version") ? { first: async () => ({ value: "fixture-v1" }) } : weird.prepare(sql),
    } as unknown as D1Database;
    const res = await callWith({ DB: versionDb }, "/1.0/search/venues?name=weird", {
      headers: { Accept: "application/json" },
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as ErrorJson;
    expect(body).toMatchObject({ code: 500, status: "Internal Server Error", message: "internal error" });
    expect(errors).toHaveBeenCalled();
    forgetDataVersion();
    expect((await call("/1.0/search/venues?name=compaq")).status).toBe(200);
  });
});
