/**
 * Phase 2, the place names (docs/api.md#a-place-in-the-text): every way a person writes a country
 * or a region at the end of a name — its codes, its names in the served languages, short forms —
 * as normalized forms (src/data-contract/spellings.ts) in place_names, each with the place's rank
 * (the pos of its largest city). Places without a city are left out: nothing is found in them.
 * Countries and regions are few (about 4,000): read whole.
 */
import type Database from "better-sqlite3";
import { nameForms } from "../../../src/data-contract/spellings.ts";
import type { Country } from "../sources/geonames.ts";
import type { RegionCode } from "../sources/region-codes.ts";

/** What people write for a country besides its codes and names: short and former names. */
const COUNTRY_SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  GB: ["UK", "U.K.", "Great Britain", "Britain"],
  US: ["USA", "U.S.A.", "U.S.", "America", "United States of America"],
  AE: ["UAE", "U.A.E."],
  NL: ["Holland", "Netherlands", "The Netherlands"],
  CZ: ["Czech Republic"],
  KR: ["Korea", "Republic of Korea"],
  KP: ["North Korea"],
  RU: ["Russian Federation"],
  CI: ["Ivory Coast"],
  CD: ["DR Congo", "DRC"],
  MK: ["Macedonia"],
  MM: ["Burma"],
  SZ: ["Swaziland"],
  TR: ["Türkiye"],
  VA: ["Vatican"],
  BA: ["Bosnia"],
};

/** Admin-1 codes that people write: with a letter, of two characters or more (not `08`, not `B`). */
const WRITTEN_CODE = /^(?=.*[A-Z])[0-9A-Z]{2,}$/;

type Form = [form: string, countryCode: string, admin1Code: string];

function countryForms(countries: readonly Country[], localized: ReadonlyMap<string, string[]>): Form[] {
  return countries.flatMap((c) =>
    [c.code, c.iso3 ?? "", c.name, ...(localized.get(c.code) ?? []), ...(COUNTRY_SHORT_FORMS[c.code] ?? [])]
      .flatMap(nameForms)
      .map((form): Form => [form, c.code, ""]),
  );
}

function regionForms(
  db: Database.Database,
  localized: ReadonlyMap<string, string[]>,
  codes: readonly RegionCode[],
): Form[] {
  const abbreviations = new Map<string, string[]>();
  for (const r of codes) {
    const key = `${r.countryCode}.${r.admin1Code}`;
    abbreviations.set(key, [...(abbreviations.get(key) ?? []), r.abbreviation]);
  }
  const regions = db.prepare("SELECT country_code, code, name FROM admin1").all() as {
    country_code: string;
    code: string;
    name: string;
  }[];
  return regions.flatMap((r) => {
    const key = `${r.country_code}.${r.code}`;
    const written = [
      ...(WRITTEN_CODE.test(r.code) ? [r.code] : []),
      r.name,
      ...(localized.get(key) ?? []),
      ...(abbreviations.get(key) ?? []),
    ];
    return written.flatMap(nameForms).map((form): Form => [form, r.country_code, r.code]);
  });
}

/** Fills place_names; returns its rows. */
export function placeNames(db: Database.Database, countries: readonly Country[], codes: readonly RegionCode[]): number {
  const localized = new Map<string, string[]>();
  const names = db.prepare("SELECT key, name FROM localized_names WHERE kind IN ('country', 'admin1')").all() as {
    key: string;
    name: string;
  }[];
  for (const { key, name } of names) localized.set(key, [...(localized.get(key) ?? []), name]);
  // Each region's first city, from its cities' regions (order.ts regionsAndNames, run before).
  const ranks = new Map<string, number>();
  const rows = db
    .prepare(
      `SELECT country_code AS cc, '' AS a1, min(first) AS rank FROM temp.city_regions GROUP BY country_code
       UNION ALL SELECT country_code, admin1_code, first FROM temp.city_regions WHERE admin1_code IS NOT NULL`,
    )
    .all() as { cc: string; a1: string; rank: number }[];
  for (const r of rows) ranks.set(`${r.cc}.${r.a1}`, r.rank);
  const insert = db.prepare(
    "INSERT OR IGNORE INTO place_names (form, country_code, admin1_code, rank) VALUES (?, ?, ?, ?)",
  );
  let count = 0;
  db.transaction(() => {
    for (const [form, cc, a1] of [...countryForms(countries, localized), ...regionForms(db, localized, codes)]) {
      const rank = ranks.get(`${cc}.${a1}`);
      if (rank !== undefined) count += insert.run(form, cc, a1, rank).changes;
    }
  })();
  return count;
}
