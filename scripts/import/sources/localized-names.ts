/**
 * Localized names: cities and states from data/localized-names.tsv (GeoNames, via Debian's
 * libgeonames-common; scripts/build-localized-names.ts), countries from i18n-iso-countries.
 */
import { createRequire } from "node:module";
import isoCountries from "i18n-iso-countries";
import { GEO_ID } from "../../../src/data-contract/ids.ts";
import { TRANSLATED } from "../../../src/data-contract/languages.ts";
import { CONTROL, RowError, type Problems } from "../problems.ts";
import { checkedLines } from "./lines.ts";

export interface LocalizedName {
  lang: string;
  /** A geonameid (city) or COUNTRY.ADMIN1 (state). */
  key: string;
  name: string;
}

const LANGUAGE_SET = new Set<string>(TRANSLATED);

export async function readLocalizedNames(path: string, problems: Problems): Promise<LocalizedName[]> {
  const rows: LocalizedName[] = [];
  const seen = new Set<string>();
  const checked = checkedLines(path, problems, (line) => {
    const [lang = "", key = "", name = "", extra] = line.split("\t");
    if (extra !== undefined) throw new RowError("expected 3 tab-separated columns: language, key, name");
    const reason = localizedNameProblem(lang, key, name);
    if (reason !== null) throw new RowError(reason);
    if (seen.has(`${lang}\t${key}`)) throw new RowError(`${lang} name of ${key} appears twice`);
    seen.add(`${lang}\t${key}`);
    return { lang, key, name: name.trim() };
  });
  for await (const row of checked) rows.push(row);
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
