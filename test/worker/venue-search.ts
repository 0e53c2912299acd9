/** Venue search pages, and the venues a query should find, read straight from D1 in the contract's order. */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { compareCodePoints, normalize } from "../../src/data-contract/normalize.ts";
import type { VenueJson, VenuesPage } from "../../src/shape.ts";
import { getJson } from "./helpers.ts";

export async function page(query: string): Promise<VenuesPage> {
  const res = await getJson(`/1.0/search/venues?${query}`);
  expect(res.status, query).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/json");
  return (await res.json()) as VenuesPage;
}

export async function status(query: string): Promise<number> {
  const res = await getJson(`/1.0/search/venues?${query}`);
  await res.arrayBuffer();
  return res.status;
}

/** A venue as §10.3 orders it: its city's population (largest first; none last), then name, then id. */
export interface Ordered {
  id: string;
  name: string;
  city_id: string | null;
  population: number | null;
}

/** docs/api.md#order, written out here (not read from the stored order): city size, then name, then id. */
export function venueOrder(a: Ordered, b: Ordered): number {
  const size = (v: Ordered) => (v.population === null ? -1 : v.population);
  return (
    size(b) - size(a) ||
    Number(a.city_id ?? 0) - Number(b.city_id ?? 0) ||
    compareCodePoints(normalize(a.name), normalize(b.name)) ||
    compareCodePoints(a.id, b.id)
  );
}

/** Venues matching a SQL condition on venues v / cities c, straight from D1, in §10.3 order. */
export async function expected(where: string, ...params: string[]): Promise<Ordered[]> {
  const { results } = await env.DB.prepare(
    `SELECT v.id, v.name, c.id AS city_id, c.population FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos WHERE ${where}`,
  )
    .bind(...params)
    .all<Ordered>();
  return results.sort(venueOrder);
}

export async function expectedIds(where: string, ...params: string[]): Promise<string[]> {
  return (await expected(where, ...params)).map((v) => v.id);
}

export const ids = (venues: VenueJson[]) => venues.map((v) => v.id);
