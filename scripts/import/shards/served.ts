/**
 * What a database of a plan is built with for its searches (docs/deploy.md#each-database-indexes-what-it-answers):
 * the search documents of the records it answers searches for, no others. Every city search runs in
 * the main database, so a venue database indexes no city and counts none (no stored totals or cell
 * counts of cities; it keeps its cities' rows and texts: its venues' answers show them); the main
 * database of `--main-venues none` answers no venue search, so it indexes no venue (the counts over
 * every venue that its merges read are built from their rows). One database, without a plan, both.
 */
import { MAIN_HOLDS_NO_VENUE } from "../../../src/data-contract/shards.ts";
import type { ShardChoice } from "./venues.ts";

/** Which records a build indexes: the cities (their search documents and counts) and the venues (their search documents). */
export interface IndexedRecords {
  cities: boolean;
  venues: boolean;
}

export function indexedRecords(shards: ShardChoice | undefined): IndexedRecords {
  if (shards === undefined) return { cities: true, venues: true };
  if (shards.index !== null) return { cities: false, venues: true };
  return { cities: true, venues: shards.mainVenues !== MAIN_HOLDS_NO_VENUE };
}
