import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params";
import { citySearchSql } from "../../src/queries/city-sql";
import { venueSearchSql } from "../../src/queries/venue-sql";
import { QUERY_CLASSES } from "../../scripts/lib/query-classes";

/** Plan lines that read a whole table or index, rather than seeking or matching. */
function fullScans(details: string[]): string[] {
  return details.filter((d) => {
    if (!d.startsWith("SCAN ")) return false;
    if (/^SCAN \S+ VIRTUAL TABLE INDEX \d+:.*M/.test(d)) return false; // an FTS5 MATCH
    return !/^SCAN (h|CONSTANT ROW|\(subquery-\d+\))$/.test(d); // the page's own few rows
  });
}

const extra = [
  { resource: "venues" as const, query: "name=s&cityName=london&state=England" },
  { resource: "venues" as const, query: "cityName=springfield" },
  { resource: "venues" as const, query: "stateCode=ENG" },
  { resource: "venues" as const, query: "name=s&cityId=2950159" },
  { resource: "cities" as const, query: "stateCode=ENG" },
  { resource: "cities" as const, query: "name=new%20york&state=New%20York" },
];

describe("query plans", () => {
  it("the check does see a full scan", async () => {
    const { results } = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM venues v WHERE v.url LIKE ?")
      .bind("%x%")
      .all<{ detail: string }>();
    expect(fullScans(results.map((r) => r.detail))).not.toEqual([]);
  });

  it.each([...QUERY_CLASSES, ...extra].map((c) => [`${c.resource}?${c.query}`, c] as const))(
    "%s seeks or matches, never scans a whole table",
    async (_label, c) => {
      const p = parseSearchParams(c.resource, c.query);
      const search = c.resource === "venues" ? venueSearchSql(p) : citySearchSql(p);
      expect(search).not.toBeNull();
      if (search === null) return;
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${search.sql}`)
        .bind(...search.params)
        .all<{ detail: string }>();
      const details = results.map((r) => r.detail);
      expect(details.length).toBeGreaterThan(0);
      expect(fullScans(details), details.join("\n")).toEqual([]);
    },
  );
});
