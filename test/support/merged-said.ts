/**
 * What the servers of test/node/shards.test.ts said about who answered (Server-Timing's
 * databases): over a main database that holds every venue, what asks several venue databases is
 * its alone; over one without venues, merged from them (docs/deploy.md#past-one-database).
 */
import { expect } from "vitest";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import type { Said } from "./compare-servers.ts";
import { mergesPath, partition } from "./shard-requests.ts";
import { searchRequest } from "../../scripts/sql/explain.ts";

type SaidOf = Said & { path: string };

const several = (s: SaidOf) => /\d\+\d/.test(s.databases);
const lookups = (said: SaidOf[]) => said.filter((s) => s.path.startsWith("/1.0/venue/"));
/** Suggestions of a name alone, and whether each may end with a place (read first in the main database). */
const suggestionsAlone = (said: SaidOf[]) =>
  partition(
    said.filter((s) => /^\/1\.0\/suggest\/venues\?name=[^&]*$/.test(s.path)),
    (s) => words(normalize(new URL(s.path, "http://x").searchParams.get("name") ?? "")).length > 1,
  );

/** Over a main database that holds every venue: each request in one venue database or in the main one. */
export function expectMainForSeveral(said: SaidOf[]): void {
  expect(said.filter(several).map((s) => s.path)).toEqual([]);
  expect(lookups(said).filter((s) => s.databases !== "main")).toEqual([]);
  const [placed, alone] = suggestionsAlone(said);
  expect(placed.length).toBeGreaterThan(20);
  expect(alone.length).toBeGreaterThan(20);
  expect([...placed, ...alone].filter((s) => s.databases !== "main")).toEqual([]);
}

/** Over a main database without venues: what asks several venue databases merged from them (`said` of each path once). */
export function expectMerged(said: SaidOf[]): void {
  // A search outside an area merges every one it asks (merged-browse.ts; with a name,
  // merged-names.ts), one without a name in an area (merged-area.ts), a name in an area
  // (merged-area-names.ts); cities: the main one.
  const [merged, searches] = partition(
    said.filter((s) => s.path.startsWith("/1.0/search/")),
    mergesPath,
  );
  const [named, areas] = partition(searches, (s) => searchRequest(s.path).params.name !== undefined);
  expect(areas.filter((s) => several(s) && searchRequest(s.path).params.page > 1).length).toBeGreaterThan(5);
  expect(areas.filter(several).length).toBeGreaterThan(10);
  expect(named.filter(several).length).toBeGreaterThan(20);
  const [names, browsed] = partition(merged, (s) => searchRequest(s.path).params.name !== undefined);
  expect(browsed.filter((s) => /\d.*\d/.test(s.databases)).length).toBeGreaterThan(50);
  expect(names.filter((s) => /\d.*\d/.test(s.databases)).length).toBeGreaterThan(30);
  // With a name, the names that matched (matched=1) are read where the records are.
  const matched = names.filter((s) => s.path.includes("matched=1"));
  expect(matched.filter((s) => /(^|\+)1\+2\+3$/.test(s.databases)).length).toBeGreaterThan(30);
  // A venue by its id: every venue database at once.
  expect(lookups(said).length).toBeGreaterThan(20);
  expect(lookups(said).filter((s) => !/(^|\+)1\+2\+3$/.test(s.databases))).toEqual([]);
  // Suggestions of a name alone merge every venue database's (src/suggest/merge.ts); a text
  // that may end with a place has its places read first in the main database, among every place.
  const [placed, alone] = suggestionsAlone(said);
  expect(placed.length).toBeGreaterThan(10);
  expect(placed.filter((s) => !/^main\+1\+2\+3$/.test(s.databases))).toEqual([]);
  expect(alone.length).toBeGreaterThan(10);
  expect(alone.filter((s) => !/(^|\+)1\+2\+3$/.test(s.databases))).toEqual([]);
}
