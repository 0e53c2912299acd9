/**
 * Phase 4, stored totals: for the name prefixes that match at least PREFIX_COUNT_MIN records, how
 * many they match in all, per country and per state (name_prefix_counts), the size of each ranking
 * tier (name_tiers) and an anchor every few matches of deep pages (name_anchors); and the venues of
 * each kind in all, per country and per state. The worker reads them so that a broad one-word
 * search, or all the clubs of a country, neither counts nor skips millions of rows.
 */
import type Database from "better-sqlite3";
import { words } from "../../../src/data-contract/normalize.ts";
import type { Progress } from "../progress.ts";
import { kindTerm } from "../../../src/data-contract/grid.ts";
import { scopeKey } from "../../../src/data-contract/scopes.ts";
import { nameAnchors, prefixCandidates, scopedPrefixCounts, type PrefixRecord } from "./prefix-totals.ts";
import type { TierRecord } from "./name-classes.ts";
import { LOCALIZED_OWN_GLOB } from "../../../src/data-contract/tokens.ts";

type Kind = "venue" | "city";
type RegionRow = { text: string; country_code: string | null; admin1_code: string | null };
type PosRow = { pos: number; text: string; names: string; own: string };

/**
 * Records grouped by country and state: the order scopedPrefixCounts counts in. Sorted from one
 * scan: walking the region index and reading each record from where its pos puts it read pages
 * all over the tables (1M venues on 2M cities: 11.2 s and 20.4 s against 3.2 s and 7.6 s; 2026-11-27).
 */
function recordsByRegion(db: Database.Database, kind: Kind): Iterable<RegionRow>[] {
  if (kind === "city") {
    const cities = db.prepare(
      "SELECT words AS text, country_code, admin1_code FROM raw_cities ORDER BY country_code, admin1_code",
    );
    return [cities.iterate() as Iterable<RegionRow>];
  }
  // The venues' cities come in pos order, as the venues do: the join reads the cities in one pass.
  const inCities = db.prepare(
    `SELECT o.words AS text, c.country_code, c.admin1_code
     FROM temp.ordered_venues o JOIN cities c ON c.pos = o.city_pos ORDER BY c.country_code, c.admin1_code`,
  );
  const cityless = db.prepare(
    "SELECT words AS text, NULL AS country_code, NULL AS admin1_code FROM temp.ordered_venues WHERE city_pos IS NULL",
  );
  return [inCities.iterate() as Iterable<RegionRow>, cityless.iterate() as Iterable<RegionRow>];
}

/** The records' words, name tokens and own names' tokens (a city's main tokens, a venue's own). */
const TIER_COLUMNS: Record<Kind, string> = {
  venue: "SELECT pos, words AS text, names, own FROM temp.ordered_venues",
  city: "SELECT pos, words AS text, names, main AS own FROM temp.city_text",
};

/** Own names in a language other than English (src/data-contract/tokens.ts). */
const LOCALIZED_OWN = `own GLOB '${LOCALIZED_OWN_GLOB}'`;

/** Records in the default order (pos): the order the anchors follow; or those with own names in another language. */
function recordsInOrder(db: Database.Database, kind: Kind, localized = false): Iterable<PosRow> {
  const sql = localized
    ? `SELECT * FROM (${TIER_COLUMNS[kind]}) WHERE ${LOCALIZED_OWN}`
    : `${TIER_COLUMNS[kind]} ORDER BY pos`;
  return db.prepare(sql).iterate() as Iterable<PosRow>;
}

function* prefixRecords(parts: Iterable<RegionRow>[]): Generator<PrefixRecord> {
  for (const rows of parts) {
    for (const r of rows) yield { text: r.text, countryCode: r.country_code, admin1Code: r.admin1_code };
  }
}

/** A venue without own tokens has one name, its own (name-classes.ts). */
function* tierRecords(rows: Iterable<PosRow>): Generator<TierRecord> {
  for (const r of rows)
    yield { pos: r.pos, text: r.text, nameTokens: words(r.names), own: r.own === "" ? null : r.own };
}

/** The stored totals, tiers and anchors of one kind of record. */
function storeKind(db: Database.Database, kind: Kind, prefixCountMin: number, anchorEvery: number): void {
  const column = kind === "venue" ? "venues" : "cities";
  const vocabulary = db.prepare(`SELECT word, ${column} FROM words WHERE ${column} > 0 ORDER BY word`).raw();
  const candidates = prefixCandidates(vocabulary.iterate() as Iterable<[string, number]>, prefixCountMin);
  const totals = scopedPrefixCounts(prefixRecords(recordsByRegion(db, kind)), candidates, prefixCountMin);
  // Anchors of deep pages for the broad prefixes of scope '' (no filters).
  const broad = new Set(totals.filter(([scope]) => scope === "").map(([, prefix]) => prefix));
  const records = tierRecords(recordsInOrder(db, kind));
  const { tiers, anchors } = nameAnchors(records, tierRecords(recordsInOrder(db, kind, true)), broad, anchorEvery);

  const insertPrefix = db.prepare("INSERT INTO name_prefix_counts (kind, scope, prefix, n) VALUES (?, ?, ?, ?)");
  const insertTiers = db.prepare(
    "INSERT INTO name_tiers (kind, lang, prefix, tier0, tier1, tier2, tier3, tier4, tier5) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertAnchor = db.prepare(
    "INSERT INTO name_anchors (kind, lang, prefix, tier, k, pos) VALUES (?, ?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (const total of totals) insertPrefix.run(kind, ...total);
    for (const t of tiers) insertTiers.run(kind, ...t);
    for (const a of anchors) insertAnchor.run(kind, ...a);
  })();
}

/**
 * How many venues of each kind there are in all, per country and per state (name_prefix_counts,
 * prefix kindTerm(kind)): every count, so that a missing row means none.
 */
function storeVenueKinds(db: Database.Database): void {
  const groups = db
    .prepare("SELECT country_code, admin1_code, kind, count(*) AS n FROM venues GROUP BY 1, 2, 3")
    .all() as { country_code: string | null; admin1_code: string | null; kind: string; n: number }[];
  const totals = new Map<string, number>();
  const add = (scope: string, kind: string, n: number) => {
    const key = `${scope}\u0000${kind}`;
    totals.set(key, (totals.get(key) ?? 0) + n);
  };
  for (const g of groups) {
    add(scopeKey(null), g.kind, g.n);
    if (g.country_code === null) continue;
    add(scopeKey(g.country_code), g.kind, g.n);
    if (g.admin1_code !== null) add(scopeKey(g.country_code, g.admin1_code), g.kind, g.n);
  }
  const insert = db.prepare("INSERT INTO name_prefix_counts (kind, scope, prefix, n) VALUES ('venue', ?, ?, ?)");
  db.transaction(() => {
    for (const [key, n] of totals) {
      const [scope = "", kind = ""] = key.split("\u0000");
      insert.run(scope, kindTerm(kind), n);
    }
  })();
}

/** The stored totals of the venues, and of the cities where the database answers city searches (`cities`: shards/served.ts). */
export function storedTotals(
  db: Database.Database,
  progress: Progress,
  options: { prefixCountMin: number; anchorEvery: number; cities: boolean },
): void {
  progress.phase("stored totals of broad name prefixes");
  const kinds = options.cities ? (["venue", "city"] as const) : (["venue"] as const);
  for (const kind of kinds) storeKind(db, kind, options.prefixCountMin, options.anchorEvery);
  storeVenueKinds(db);
}
