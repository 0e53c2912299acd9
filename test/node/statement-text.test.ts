/**
 * Statement texts that do not depend on a request's values (src/sql/sql.ts numbered()): workerd
 * keeps a statement prepared by its text, so a search in a new circle or box, or on another page,
 * must reuse the text of the last one of its kind; and binding the values instead of writing them
 * must keep every statement within D1's 100 bound values. Pure: the statements are built, not run
 * (their answers are tested against brute force in near.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries } from "../../src/query/resource.ts";
import { firstTrip } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";
import { literal, num, numbered, sql, type Sql } from "../../src/sql/sql.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

function statements(resource: "venues" | "cities", query: string): Sql[] {
  const q = (resource === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
  return firstTrip(q, parseSearchParams(resource, query), "en")?.trip.statements ?? [];
}

const texts = (resource: "venues" | "cities", query: string): string[] =>
  statements(resource, query).map((s) => s.text);

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

describe("a search's statements bind at most D1's 100 values", () => {
  // D1 refuses a statement with more (the local D1 too: "too many SQL variables"); an area's
  // centre, radii and edges appear in many places and are bound once each (numbered()).
  const D1_MAX_BOUND = 100;
  const filters = fc.constantFrom(
    "",
    "&country=US",
    "&state=California",
    "&stateCode=CA&country=US",
    "&cityName=london&country=GB",
    "&kind=club",
  );
  const words = fc.constantFrom(
    "",
    "&name=club",
    "&name=the%20blue%20room%20club%20of%20saint%20jean",
    "&name=clbu%20rooom",
  );
  const area = fc.oneof(
    fc
      .tuple(lat, lng, fc.constantFrom(0.05, 10, 500))
      .map(([la, lo, km]) => `lat=${round(la)}&long=${round(lo)}&radius=${km}`),
    fc.tuple(lng, lat, lng, lat).map((b) => `bbox=${b.map(round).join(",")}`),
    fc.constant("bbox=170,-80,-170,80"),
    fc.constant(""),
  );
  it("whatever the area, the name, the filters and the page", () => {
    fc.assert(
      fc.property(resource, area, words, filters, page, (r, a, n, f, p) => {
        const query = `${a}${n}${f}&p=${p}`.replace(/^&/, "");
        try {
          parseSearchParams(r, query);
        } catch {
          return; // a combination the contract refuses (a kind filter on cities, a box upside down)
        }
        for (const s of statements(r, query)) expect(s.binds.length).toBeLessThanOrEqual(D1_MAX_BOUND);
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

  it("write a string from code as a literal, bound nowhere", () => {
    const s = numbered(sql`SELECT ${literal("it's")}, ${"a"}, ${literal("it's")}`);
    expect(s.text).toBe("SELECT 'it''s', +?1, 'it''s'");
    expect(s.binds).toEqual(["a"]);
  });

  it("change nothing when numbered again, or without values", () => {
    const s = numbered(sql`SELECT ${num(2, "km")}, ${num(2, "km")}, ${2}`);
    expect(s.text).toBe("SELECT +?1, +?1, +?2");
    expect(numbered(s)).toEqual(s);
    expect(numbered(sql`SELECT 1`).text).toBe("SELECT 1");
  });
});
