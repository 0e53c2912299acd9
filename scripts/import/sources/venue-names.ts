/**
 * Every name a venue has (docs/api.md#every-name-a-venue-has), as its source gives them, and the
 * name shown for it: the one setlist.fm would show. By default (English) the source's own name
 * when it is written in Latin script, else its English name, else an international or romanized
 * one, else its own name; in a served language, that language's name first. Every name is
 * searched; the shown names are stored per language (localized_names, kind 'venue'). Pure.
 */
import { TRANSLATED } from "../../../src/data-contract/languages.ts";
import { normalize } from "../../../src/data-contract/normalize.ts";
import { CONTROL } from "../problems.ts";

/** A venue's names as a source gives them. */
export interface SourceNames {
  /** Its own name (OSM `name`, MusicBrainz `name`), in its own script. */
  name: string;
  /** Its name in a language (OSM `name:en`, a MusicBrainz primary alias of that locale). */
  byLanguage: ReadonlyMap<string, string>;
  /** Latin-script names for everyone, best first (OSM `int_name`, then `name:<lang>-Latn`). */
  international: readonly string[];
  /** Its other names: alternative, old, short, local, official names, other aliases, search hints. */
  others: readonly string[];
}

/** What the import keeps of a venue's names. */
export interface VenueNames {
  /** The name shown by default. */
  name: string;
  /** The name shown in a served language, where it differs from `name`. */
  localizedNames: Record<string, string>;
  /** Every other name, searched but not shown (each once, none equal to `name` when normalized). */
  otherNames: string[];
}

const MAX_NAME = 300;

/** Whether every letter of a name is a Latin letter (a name without letters counts as Latin). */
export const isLatin = (text: string): boolean => /^[\P{L}\p{Script=Latin}]*$/u.test(text);

/** A name as stored: trimmed, spaces collapsed; null when empty, too long or with control characters. */
export function cleanName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const name = value.trim().replace(/\s+/g, " ");
  return name === "" || name.length > MAX_NAME || CONTROL.test(name) ? null : name;
}

/** `a;b; c` as names (OSM and this service's own rows separate several names with `;`). */
export const splitNames = (value: unknown): string[] =>
  typeof value === "string" ? value.split(";").flatMap((part) => cleanName(part) ?? []) : [];

/** The shown names and the other names of a venue. */
export function venueNames(source: SourceNames): VenueNames {
  const own = source.name;
  const shown = isLatin(own) ? own : (source.byLanguage.get("en") ?? source.international[0] ?? own);
  const localizedNames: Record<string, string> = {};
  for (const lang of TRANSLATED) {
    const name = source.byLanguage.get(lang);
    if (name !== undefined && name !== shown) localizedNames[lang] = name;
  }
  const seen = new Set([normalize(shown)]);
  const otherNames: string[] = [];
  for (const name of [own, ...source.byLanguage.values(), ...source.international, ...source.others]) {
    const key = normalize(name);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    otherNames.push(name);
  }
  return { name: shown, localizedNames, otherNames };
}
