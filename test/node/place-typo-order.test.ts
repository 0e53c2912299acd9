/**
 * A typo in a place ranks after what the text as typed finds (docs/api.md#typo-tolerance: fewest
 * edits first), on the default data: `the club` names The Anchor Club and 3,854 more, whose names
 * hold both words; read as "the" in Cuba with a typo ("club" one edit from "cub"), it answered
 * The Bamboo in Havana first, until a place read with a typo was weighed against the strict answer
 * by its edits too (src/query/forgiving.ts). The default data is the tests' state of it
 * (scripts/tools/default-data-state.ts), imported when it is not current.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../../scripts/tools/default-data-state.ts";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { quiet } from "../support/import-fixtures.ts";

let db: Database.Database;

beforeAll(async () => {
  await importDefaultDataState(quiet);
  db = new Database(localD1File(d1Database().id, DEFAULT_DATA_STATE), { readonly: true });
}, 300_000);
afterAll(() => db.close());

it("answers the text as typed before a place read with a typo", async () => {
  const params = parseSearchParams("venues", "name=the%20club");
  const page = await runSearch(VENUES, localRunner(db), params, "en");
  expect(page.match).toBe("exact");
  expect(page.total).toBeGreaterThan(1000);
  for (const v of page.items) expect(words(normalize(v.name)), v.name).toEqual(expect.arrayContaining(["the", "club"]));
});
