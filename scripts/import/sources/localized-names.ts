/**
 * Localized names: cities and states from data/localized-names.tsv (GeoNames, via Debian's
 * libgeonames-common; scripts/build-localized-names.ts), countries from i18n-iso-countries.
 */
import { createRequire } from "node:module";
import { basename } from "node:path";
import isoCountries from "i18n-iso-countries";
import { GEO_ID } from "../../../src/format/ids.ts";
import { TRANSLATED } from "../../../src/format/languages.ts";
import { CONTROL, type Problems } from "../problems.ts";
import { readLines } from "./lines.ts";

export interface LocalizedName {
  lang: string;
  /** A geonameid (city) or COUNTRY.ADMIN1 (state). */
  key: string;
  name: string;
}

const LANGUAGE_SET = new Set<string>(TRANSLATED);

export async function readLocalizedNames(path: string, problems: Problems): Promise<LocalizedName[]> {
  const file = basename(path);
  const rows: LocalizedName[] = [];
  const seen = new Set<string>();
  for await (const [line, lineNo] of readLines(path)) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const [lang = "", key = "", name = "", extra] = line.split("\t");
    const reason =
      extra !== undefined
        ? "expected 3 tab-separated columns: language, key, name"
        : (localizedNameProblem(lang, key, name) ??
          (seen.has(`${lang}\t${key}`) ? `${lang} name of ${key} appears twice` : null));
    if (reason !== null) {
      problems.add(file, lineNo, reason);
      continue;
    }
    seen.add(`${lang}\t${key}`);
    rows.push({ lang, key, name: name.trim() });
  }
  return rows;
}

function localizedNameProblem(lang: string, key: string, name: string): string | null {
  if (!LANGUAGE_SET.has(lang)) return `language "${lang}" is not one of ${TRANSLATED.join(", ")}`;
  if (!GEO_ID.test(key) && !/^[A-Z]{2}\.[0-9A-Za-z]{1,20}$/.test(key)) {
    return `key "${key}" is neither a geonameid nor COUNTRY.ADMIN1`;
  }
  if (name.trim() === "" || name.length > 200 || CONTROL.test(name))
    return "name is empty, too long or has control characters";
  return null;
}

/** Country names in every translated language, from i18n-iso-countries. */
export function countryNames(codes: readonly string[]): LocalizedName[] {
  const require = createRequire(import.meta.url);
  const rows: LocalizedName[] = [];
  for (const lang of TRANSLATED) {
    isoCountries.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`) as isoCountries.LocaleData);
    for (const code of codes) {
      const name = isoCountries.getName(code, lang, { select: "official" });
      if (name) rows.push({ lang, key: code, name });
    }
  }
  return rows;
}

/** The version of i18n-iso-countries, part of the data version. */
export function countryNamesSource(): string {
  const require = createRequire(import.meta.url);
  return `i18n-iso-countries ${(require("i18n-iso-countries/package.json") as { version: string }).version}`;
}
