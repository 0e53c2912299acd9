/**
 * npm run sql (scripts/sql.ts, scripts/sql/): the statements of a search request, their bound values
 * and plans, on a fixture import — round trip by round trip as the worker sends them — and one-line
 * errors for a bad path, a bad parameter (the worker's own message) and a database without data.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { fullScans } from "../../scripts/bench/plans.ts";
import { explainSearch, openServed, searchRequest, SqlToolError } from "../../scripts/sql/explain.ts";
import { explainedText } from "../../scripts/sql/print.ts";
import { bin, run } from "../../scripts/tools/project.ts";
import { ApiError } from "../../src/http/errors.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { dir, fixtureImport } from "../support/import-fixtures.ts";

const path = join(dir, "sql-tool.sqlite");

async function explain(target: string) {
  const { db } = openServed(path);
  try {
    return await explainSearch(db, searchRequest(target));
  } finally {
    db.close();
  }
}

/** The message the worker's parser gives for a query string. */
function workerMessage(resource: "venues" | "cities", query: string): string {
  try {
    parseSearchParams(resource, query);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
  }
  throw new Error(`${query} parsed`);
}

describe("npm run sql", () => {
  beforeAll(async () => {
    await fixtureImport(path);
  });

  it("prints each statement of a search with its bound values and its plan", async () => {
    const e = await explain("/1.0/search/venues?name=stadt&bbox=5,45,15,55");
    expect(e.trips).toHaveLength(1);
    expect(e.trips[0]?.what).toBe("venues search");
    expect(e.page.total).toBeGreaterThan(0);
    const text = explainedText(e, path);
    for (const s of e.trips[0]?.statements ?? []) {
      // Every numbered placeholder has its value listed, and the plan is read from the file.
      const placeholders = new Set([...s.statement.text.matchAll(/\+\?(\d+)/g)].map((m) => Number(m[1])));
      expect(placeholders.size).toBe(s.statement.binds.length);
      expect(s.plan.length).toBeGreaterThan(0);
      expect(fullScans(s.plan.map((p) => p.detail))).toEqual([]);
      expect(text).toContain(s.statement.text.split("\n")[0]?.trim());
      for (const p of s.plan) expect(text).toContain(p.detail);
    }
    expect(text).toContain(`-- bound values (${e.trips[0]?.statements[0]?.statement.binds.length}): ?1 = `);
    // Each statement says what it is in the search's plan (src/query/trip.ts).
    expect(e.trips[0]?.statements.map((s) => s.name)).toEqual(["page", "corrections", "places"]);
    expect(text).toContain("-- statement 1 (page): ");
    expect(text).toContain(`Answer: ${e.page.items.length} records of ${e.page.total} on page 1, X-Match: exact.`);
  });

  it("shows the round trips after the first: the typo fallback", async () => {
    const typo = await explain("/rest/1.0/search/cities?name=berln");
    expect(typo.trips.map((t) => t.what)).toEqual(["cities search", "cities search forgiving typos"]);
    expect(typo.page.match).toBe("fuzzy");
    expect(explainedText(typo, path)).toContain(
      "No record's name is the text as typed, or nothing matches it: then cities search forgiving typos.",
    );
    const exact = await explain("/1.0/search/cities/?name=berlin");
    expect(exact.trips).toHaveLength(1);
    expect(explainedText(exact, path)).toContain("The name matches as typed: no other round trip");
    const strict = await explain("/1.0/search/cities?name=berln&typos=0");
    expect(strict.trips).toHaveLength(1);
    expect(explainedText(strict, path)).toContain("No typo fallback: typos=0.");
  });

  it("shows a place read in the name, and the search that answered", async () => {
    const place = await explain("/1.0/search/cities?name=paris%20texas");
    expect(place.trips.map((t) => t.what)).toEqual(["cities search", "cities search of a place in the text"]);
    expect(explainedText(place, path)).toContain("X-Match: place, X-Read-As: country=US&name=paris&stateCode=TX.");
  });

  it("shows the one statement of the suggestions", async () => {
    const e = await explain("/1.0/suggest/cities?name=ber&limit=3");
    expect(e.trips.map((t) => t.what)).toEqual(["cities suggestions"]);
    expect(e.page.items.length).toBeGreaterThan(0);
    const text = explainedText(e, path);
    expect(text).toContain("cities suggestions, canonical query name=ber&limit=3, language en");
    for (const s of e.trips[0]?.statements ?? []) expect(fullScans(s.plan.map((p) => p.detail))).toEqual([]);
  });
});

describe("npm run sql, refusing", () => {
  beforeAll(async () => {
    await fixtureImport(path);
  });

  it("refuses what is not a search, and bad parameters with the worker's own message", () => {
    for (const target of ["/1.0/venue/abc", "venues?name=x", "/1.0/search/countries", "/2.0/search/venues"]) {
      expect(() => searchRequest(target), target).toThrow(SqlToolError);
    }
    for (const query of ["p=0", "name=a&name=b", "bbox=1,2,3", "lat=91&long=0"]) {
      expect(() => searchRequest(`/1.0/search/venues?${query}`)).toThrow(workerMessage("venues", query));
    }
  });

  it("says what to run when there is no database or no data yet", () => {
    expect(() => openServed(join(dir, "none.sqlite"))).toThrow(/^no database at .* yet: run `npm start`/);
    const empty = join(dir, "empty.sqlite");
    new Database(empty).close();
    expect(() => openServed(empty)).toThrow(/empty\.sqlite holds no data yet: run `npm start`/);
  });

  it("runs as an npm script, failing in one line", async () => {
    const out = await run(bin("tsx"), ["scripts/sql.ts", "/1.0/search/venues?name=stadt", "--database", path]);
    expect(out).toContain("Round trip 1: venues search");
    const failed = await run(bin("tsx"), ["scripts/sql.ts", "/1.0/search/venues?p=0", "--database", path]).then(
      () => "exited with 0",
      (error: unknown) => String(error),
    );
    // The run's message, then the program's whole output: one line.
    expect(failed.split("\n").slice(1)).toEqual(["npm run sql: parameter p must be a page number from 1 to 999999"]);
  });
});
