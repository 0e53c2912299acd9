/**
 * npm run data:build-localized -- [--mo-dir DIR] — writes data/localized-names.tsv: the
 * GeoNames names of cities and states in the languages setlist.fm localizes (es, fr, de, pt, tr,
 * it, pl), from the gettext catalogs of Debian's libgeonames-common (one geonames.mo per locale,
 * mapping a geonameid, or `CC.ADMIN1` for a state, to its name). Run once; the output is
 * committed. To get the catalogs:
 *
 *   apt-get download libgeonames-common && dpkg-deb -x libgeonames-common_*.deb pkg
 *   npm run data:build-localized -- --mo-dir pkg/usr/share/locale
 *
 * (or install the package and use the default, /usr/share/locale). Only names of cities and
 * states in the default data that differ from the English name are kept.
 *
 * GeoNames renumbers regions (Vietnam 2025, Norway 2024), so a state's code means what it meant in
 * the catalogs' snapshot, which need not be the admin-1 table's: a state's names are kept only
 * where the catalogs' English name for its code names the same region as the table does (a word in
 * common, or the first four letters of one), or where the two names were read by a person and found
 * to be one region's (REVIEWED_SAME_REGION); any other state's names are left out, and listed.
 */
import "./node-version.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultSources } from "./import/sources/resolve.ts";
import { TRANSLATED } from "../src/data-contract/languages.ts";
import { normalize } from "../src/data-contract/normalize.ts";
import { ROOT } from "./tools/project.ts";

/** Reads a gettext .mo catalog (either byte order) into a map of message id → translation. */
export function readMo(bytes: Buffer): Map<string, string> {
  const magic = bytes.readUInt32LE(0);
  const little = magic === 0x950412de;
  if (!little && bytes.readUInt32BE(0) !== 0x950412de) throw new Error("not a gettext .mo file");
  const u32 = (offset: number) => (little ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset));
  const count = u32(8);
  const originals = u32(12);
  const translations = u32(16);
  const entries = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const key = bytes.toString("utf8", u32(originals + 8 * i + 4), u32(originals + 8 * i + 4) + u32(originals + 8 * i));
    const start = u32(translations + 8 * i + 4);
    if (key !== "") entries.set(key, bytes.toString("utf8", start, start + u32(translations + 8 * i)));
  }
  return entries;
}

function englishNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const line of readFileSync(defaultSources().cities, "utf8").split("\n")) {
    const [id, name] = line.split("\t");
    if (id && name) names.set(id, name);
  }
  for (const line of readFileSync(join(ROOT, "data", "admin1CodesASCII.txt"), "utf8").split("\n")) {
    const [key, name] = line.split("\t");
    if (key && name) names.set(key, name);
  }
  return names;
}

/** Whether two English names of a region name the same one: a word in common, or its first four letters. */
function sameRegion(a: string, b: string): boolean {
  const words = (s: string) =>
    normalize(s)
      .split(" ")
      .filter((w) => w !== "");
  const stems = new Set(words(a).map((w) => w.slice(0, 4)));
  return words(b).some((w) => stems.has(w.slice(0, 4)));
}

/**
 * Codes whose English names differ in the catalogs and in data/admin1CodesASCII.txt but name one
 * region (read on 2026-11-28, both names side by side: Rangoon and Yangon, Nur-Sultan and Astana,
 * Al Qaşrayn and Kasserine Governorate, District of Columbia and Washington, D.C.).
 */
const REVIEWED_SAME_REGION = new Set(
  (
    "AF.27 BE.VLG BT.07 BT.09 BT.16 BT.18 BT.19 BY.02 CZ.52 DE.08 ET.54 IN.14 JO.20 KP.17 KZ.05 LV.05 MK.C9 " +
    "MM.17 MN.01 MN.13 MV.39 NP.4 PH.08 PH.NCR PL.78 RU.29 SY.13 TN.02 TN.06 TN.16 TN.17 TN.18 TN.19 TN.22 " +
    "TN.23 TN.27 TN.28 TN.29 TN.31 TN.32 TN.35 UA.13 US.DC"
  ).split(" "),
);

/** States whose code names another region in the catalogs than in the admin-1 table. */
function renumberedStates(catalogEnglish: Map<string, string>, english: Map<string, string>): Set<string> {
  const renumbered = new Set<string>();
  for (const [key, name] of catalogEnglish) {
    const en = english.get(key);
    const same = REVIEWED_SAME_REGION.has(key) || sameRegion(name, en ?? name);
    if (key.includes(".") && en !== undefined && !same) renumbered.add(key);
  }
  console.log(
    `states left out (another region in the catalogs, or a name not reviewed): ${[...renumbered].join(", ") || "none"}`,
  );
  return renumbered;
}

function main(): void {
  const { values } = parseArgs({ options: { "mo-dir": { type: "string" } } });
  const dir = values["mo-dir"] ?? "/usr/share/locale";
  const catalogOf = (lang: string) => readMo(readFileSync(join(dir, lang, "LC_MESSAGES", "geonames.mo")));
  const english = englishNames();
  const renumbered = renumberedStates(catalogOf("en"), english);
  const lines: string[] = [];
  for (const lang of TRANSLATED) {
    const catalog = catalogOf(lang);
    let kept = 0;
    for (const [key, name] of [...catalog].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const en = english.get(key);
      const clean = name.trim();
      if (en === undefined || renumbered.has(key) || clean === "" || clean === en || /[\t\n\r]/.test(clean)) continue;
      lines.push(`${lang}\t${key}\t${clean}`);
      kept++;
    }
    console.log(`${lang}: ${kept} names (of ${catalog.size} in the catalog)`);
  }
  const header = [
    "# Localized names of GeoNames cities (key: geonameid) and states (key: COUNTRY.ADMIN1), one per line:",
    "# language, key, name. From the gettext catalogs of Debian's libgeonames-common 0.3.0 (GeoNames data,",
    "# CC BY 4.0), by scripts/build-localized-names.ts; names equal to the English one are left out.",
  ];
  writeFileSync(join(ROOT, "data", "localized-names.tsv"), `${[...header, ...lines].join("\n")}\n`);
  console.log(`wrote data/localized-names.tsv (${lines.length} names)`);
}

main();
