/**
 * A search's plan is a value (src/query/trip.ts, trips.ts firstTrip): the statements of its first
 * round trip, by name, before anything runs. What each kind of request sends in that one trip:
 * its total apart or carried by the page, and what the typo fallback and the place readings need
 * when they may run (docs/architecture.md#the-request-path).
 */
import { describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries } from "../../src/query/resource.ts";
import { firstTrip } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";

const plan = (resource: "venues" | "cities", query: string) => {
  const q = (resource === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
  return firstTrip(q, parseSearchParams(resource, query), "en");
};

describe("the plan of a search's first round trip", () => {
  it.each([
    // A name: its total and page, the vocabulary's corrections, the strict tier and the place readings.
    ["venues", "name=club", ["total", "page", "corrections", "places"]],
    ["cities", "name=paris", ["total", "page", "corrections", "places"]],
    ["venues", "name=royal%20theatre", ["total", "page", "corrections", "places"]],
    // Without typos, a place is still read at the end of a name of several words, not of one.
    ["venues", "name=club%20berlin&typos=0", ["total", "page", "places"]],
    ["venues", "name=club&typos=0", ["total", "page"]],
    ["venues", "name=club%20berlin&typos=0&places=0", ["total", "page"]],
    // A word too short to correct asks no vocabulary.
    ["venues", "name=s", ["total", "page"]],
    // In an area the page's rows carry the total (src/geo/).
    ["venues", "name=club&bbox=-0.4,51.35,0.15,51.65", ["page", "corrections", "places"]],
    ["venues", "lat=51.5&long=-0.12&radius=10", ["page"]],
    // Filters alone.
    ["venues", "country=US", ["total", "page"]],
    ["venues", "cityId=2950159&p=3", ["total", "page"]],
    ["cities", "state=bavaria", ["total", "page"]],
  ] as const)("%s?%s sends %j", (resource, query, names) => {
    const first = plan(resource, query);
    expect(first?.trip.names).toEqual(names);
    expect(first?.fuzzy).toBe((names as readonly string[]).includes("corrections"));
    expect(first?.trip.statements).toHaveLength(names.length);
  });

  it("a name without words plans nothing", () => {
    expect(plan("venues", "name=%2B%2B")).toBeNull();
  });
});
