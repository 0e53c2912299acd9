/**
 * Query plans: every statement of every query class (and a few more combinations) seeks or
 * matches, never scans a whole table — checked with EXPLAIN QUERY PLAN on the test database,
 * which, like a served database, has no planner statistics.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/query/typos.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import { firstTrip, fuzzyTrip } from "../../src/query/trips.ts";
import type { Sql } from "../../src/sql/sql.ts";
import { VENUES } from "../../src/query/venues.ts";
import { fullScans } from "../../scripts/bench/plans.ts";
import { parseSuggestParams } from "../../src/suggest/params.ts";
import { suggestStatement } from "../../src/suggest/suggest.ts";
import { QUERY_CLASSES } from "../../scripts/bench/query-classes.ts";

async function plan(statement: Sql): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.text}`)
    .bind(...statement.binds)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

const extra = [
  { resource: "venues" as const, query: "name=s&cityName=london&state=England" },
  { resource: "venues" as const, query: "cityName=springfield" },
  { resource: "venues" as const, query: "stateCode=ENG" },
  { resource: "venues" as const, query: "name=s&cityId=2950159" },
  { resource: "venues" as const, query: "cityId=2950159&lat=52.5&long=13.4&radius=50" },
  { resource: "venues" as const, query: "country=DE&state=Berlin&lat=52.5&long=13.4" },
  { resource: "cities" as const, query: "stateCode=ENG" },
  { resource: "cities" as const, query: "name=new%20york&state=New%20York" },
  { resource: "cities" as const, query: "name=new%20yrok&country=US&lat=40.7&long=-74&radius=100" },
  // A place in the text: countries, regions and a venue's city read at the end of the name.
  { resource: "venues" as const, query: "name=stadthalle%20wien%20austria" },
  { resource: "venues" as const, query: "name=club%20berlin&kind=club" },
  { resource: "cities" as const, query: "name=springfield%20il%20usa" },
  { resource: "cities" as const, query: "name=london%20ontario&country=CA" },
];

/** Candidates as the vocabulary would give them: the words themselves and near misses. */
const candidates: Candidate[] = [
  { word: "club", records: 100, places: 0 },
  { word: "paris", records: 50, places: 0 },
  { word: "york", records: 20, places: 0 },
  { word: "zollhaus", records: 3, places: 0 },
  { word: "room", records: 40, places: 0 },
  { word: "blue", records: 40, places: 0 },
  { word: "munchen", records: 5, places: 0 },
];

describe("query plans", () => {
  it("the check does see a full scan", async () => {
    const details = await plan({ text: "SELECT count(*) FROM venues v WHERE v.url LIKE ?", binds: ["%x%"] });
    expect(fullScans(details)).not.toEqual([]);
  });

  it.each([...QUERY_CLASSES, ...extra].map((c) => [`${c.resource}?${c.query}`, c] as const))(
    "%s seeks or matches, never scans a whole table",
    async (_label, c) => {
      const p = parseSearchParams(c.resource, c.query);
      const q = c.resource === "venues" ? VENUES : CITIES;
      const first = firstTrip(q as typeof VENUES, p, "de");
      expect(first).not.toBeNull();
      const statements = [...(first?.trip.statements ?? [])];
      if (first?.fuzzy) statements.push(...(fuzzyTrip(q as typeof VENUES, p, "de", candidates)?.trip.statements ?? []));
      for (const statement of statements) {
        const details = await plan(statement);
        expect(details.length).toBeGreaterThan(0);
        expect(fullScans(details), `${statement.text}\n${details.join("\n")}`).toEqual([]);
      }
    },
  );
});

describe("query plans of the suggestions", () => {
  it.each([
    ["cities", "name=tok"],
    ["cities", "name=new%20yo&country=US"],
    ["cities", "name=springf&lat=41.88&long=-87.63"],
    ["cities", "name=paris%20tx"],
    ["venues", "name=club%20ber&kind=club"],
    ["venues", "name=a&bbox=-0.4,51.35,0.15,51.65"],
    ["venues", "name=the%20fill&cityName=san%20francisco&lat=37.7&long=-122.4"],
  ] as const)("%s?%s seeks or matches, never scans a whole table", async (resource, query) => {
    const q = resource === "venues" ? VENUES : CITIES;
    const statement = suggestStatement(q as typeof CITIES, parseSuggestParams(resource, query), "de");
    if (statement === null) throw new Error("no statement");
    expect(fullScans(await plan(statement))).toEqual([]);
  });
});
