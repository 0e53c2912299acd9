/**
 * The typo fallback's statements (src/query/trips.ts fuzzyTrip), the widest a search sends: a tier
 * for each class, name tier and count of edits of its readings (src/query/typos.ts), each with its
 * FTS5 text, whose words longer than FTS5's prefix index are asked as the words that start them
 * (src/match/long-words.ts). For typos drawn over up to 14 words, in areas and not, each statement
 * binds at most D1's 100 values, and SQLite 3.54 (better-sqlite3's) prepares it on a fixture import:
 * it refuses a statement whose common table expressions, expanded at each use, reach 1,000 cursors
 * ("VIEWs and/or subqueries nested too deep": docs/benchmarks.md#statements-nested-deep).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withLongWords } from "../../src/match/long-words.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries } from "../../src/query/resource.ts";
import { fuzzyTrip } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";
import { anonymous } from "../../src/sql/sql.ts";
import { dir, fixtureImport } from "../support/import-fixtures.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const D1_MAX_BOUND = 100;
const path = join(dir, "statement-typos.sqlite");
let db: Database.Database;

beforeAll(async () => {
  await fixtureImport(path);
  db = new Database(path, { readonly: true });
});
afterAll(() => db.close());

const letters = "abcdefghiklmnoprstuvz";
const typo = (w: string, at: number, letter: number) => {
  const i = at % w.length;
  return w.slice(0, i) + letters.charAt(letter % letters.length) + w.slice(i + 1);
};
// Names within the contract's 100 characters, and corrections of their words: one or two letters changed.
const names = fc
  .array(fc.stringMatching(/^[a-z]{2,10}$/), { minLength: 1, maxLength: 14 })
  .filter((list) => list.join(" ").length <= 100);
const typed = names.chain((list) =>
  fc.record({
    list: fc.constant(list),
    candidates: fc.array(fc.tuple(fc.nat(list.length - 1), fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.boolean()), {
      maxLength: 240,
    }),
    present: fc.array(fc.boolean(), { minLength: list.length, maxLength: list.length }),
    typedMatches: fc.boolean(),
    area: fc.constantFrom("", "&country=DE", "&lat=48.1&long=11.5&radius=50", "&bbox=5,45,15,55"),
  }),
);

describe("the typo fallback's statements", () => {
  it("bind at most D1's 100 values and are prepared by SQLite 3.54, however many words, typos and corrections", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("venues" as const, "cities" as const),
        typed,
        fc.integer({ min: 1, max: 20 }),
        (r, t, p) => {
          const candidates = t.candidates.map(([i, a1, l1, a2, l2, twice]) => {
            const once = typo(t.list[i] ?? "a", a1, l1);
            return { word: twice ? typo(once, a2, l2) : once, records: 1 + (a1 % 50), places: 0 };
          });
          const q = (r === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
          const params = parseSearchParams(r, `name=${encodeURIComponent(t.list.join(" "))}${t.area}&p=${p}`);
          const trip = fuzzyTrip(q, params, "en", candidates, { present: t.present, typedMatches: t.typedMatches });
          for (const s of trip?.trip.statements ?? []) {
            const asRun = withLongWords(s);
            expect(asRun.binds.length).toBeLessThanOrEqual(D1_MAX_BOUND);
            expect(() => db.prepare(anonymous(asRun).text)).not.toThrow();
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
