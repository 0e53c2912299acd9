/**
 * Statement texts that do not depend on a request's values (src/sql/sql.ts numbered()): workerd
 * keeps a statement prepared by its text, so a search in a new circle or box, or on another page,
 * must reuse the text of the last one of its kind. Pure: the texts are compared, not run (the
 * statements' answers are tested against brute force in near.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import { firstTrip, type ResourceQueries } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { num, numbered, sql } from "../../src/sql/sql.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

function texts(resource: "venues" | "cities", query: string): string[] {
  const q = (resource === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
  return firstTrip(q, parseSearchParams(resource, query), "en")?.statements.map((s) => s.text) ?? [];
}

const resource = fc.constantFrom("venues" as const, "cities" as const);
const name = fc.constantFrom("", "&name=club", "&name=s", "&name=the%20blue", "&name=clbu", "&country=FR");
const page = fc.integer({ min: 1, max: 40 });
// Away from the poles and the antimeridian, where an area's cover takes another shape.
const lat = fc.double({ min: -70, max: 70, noNaN: true });
const lng = fc.double({ min: -170, max: 170, noNaN: true });
const round = (d: number) => d.toFixed(4);

describe("a search's statement text is the same for every value of its kind", () => {
  it("circles of one radius anywhere, on any page", () => {
    const radius = fc.constantFrom(1, 10, 100, 500);
    fc.assert(
      fc.property(resource, name, radius, lat, lng, page, lat, lng, page, (r, n, km, la1, lo1, p1, la2, lo2, p2) => {
        const a = texts(r, `lat=${round(la1)}&long=${round(lo1)}&radius=${km}${n}&p=${p1}`);
        const b = texts(r, `lat=${round(la2)}&long=${round(lo2)}&radius=${km}${n}&p=${p2}`);
        expect(a.length).toBeGreaterThan(0);
        expect(b).toEqual(a);
      }),
      { numRuns: RUNS },
    );
  });

  it("boxes of any size anywhere (not across the antimeridian), on any page", () => {
    const box = fc
      .tuple(lng, lat, fc.double({ min: 0.01, max: 9, noNaN: true }), fc.double({ min: 0.01, max: 9, noNaN: true }))
      .map(([w, s, dw, ds]) => [w, s, w + dw, s + ds].map(round).join(","));
    fc.assert(
      fc.property(resource, name, box, page, box, page, (r, n, b1, p1, b2, p2) => {
        expect(texts(r, `bbox=${b2}${n}&p=${p2}`)).toEqual(texts(r, `bbox=${b1}${n}&p=${p1}`));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("numbered statements", () => {
  it("bind a number of one kind once for all its places, and every other value in its own place", () => {
    const lat = num(1.5, "lat");
    const s = numbered(sql`SELECT ${lat}, ${"a"}, ${lat}, ${num(1.5, "km")}, ${1.5}, ${1.5}, ${num(1.5, "lat")}`);
    expect(s.text).toBe("SELECT +?1, +?2, +?1, +?3, +?4, +?5, +?1");
    expect(s.binds).toEqual([1.5, "a", 1.5, 1.5, 1.5]);
  });

  it("change nothing when numbered again, or without values", () => {
    const s = numbered(sql`SELECT ${num(2, "km")}, ${num(2, "km")}, ${2}`);
    expect(s.text).toBe("SELECT +?1, +?1, +?2");
    expect(numbered(s)).toEqual(s);
    expect(numbered(sql`SELECT 1`).text).toBe("SELECT 1");
  });
});
