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
 */
import "./node-version.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultSources } from "./import/sources/resolve.ts";
import { TRANSLATED } from "../src/data-contract/languages.ts";
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

function main(): void {
  const { values } = parseArgs({ options: { "mo-dir": { type: "string" } } });
  const dir = values["mo-dir"] ?? "/usr/share/locale";
  const english = englishNames();
  const lines: string[] = [];
  for (const lang of TRANSLATED) {
    const catalog = readMo(readFileSync(join(dir, lang, "LC_MESSAGES", "geonames.mo")));
    let kept = 0;
    for (const [key, name] of [...catalog].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const en = english.get(key);
      const clean = name.trim();
      if (en === undefined || clean === "" || clean === en || /[\t\n\r]/.test(clean)) continue;
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
