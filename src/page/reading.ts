/**
 * How the API read a place at the end of a name (docs/architecture.md#the-search-page): the answer's
 * `X-Read-As` is the query it ran (`cityId=2950159&name=club`, `country=US&name=portland&stateCode=OR`,
 * `country=GB&name=london`), and the first result names that place: "Berlin, Germany",
 * "Oregon, United States". Pure: the page asks for a city the results do not name in full, and
 * names countries by their codes.
 */
import { placeWords } from "./words.ts";

/** A place as an answer gives it: a city of a city search, or a venue's city (often without a country). */
export interface Place {
  id?: string;
  name?: string;
  state?: string;
  stateCode?: string;
  country?: { code?: string; name?: string };
}

/** The query the API ran instead of the name as typed: its name and the place it read. */
export interface ReadAs {
  /** The name searched for without the place ("club"); "" when none is left. */
  name: string;
  cityId?: string;
  state?: string;
  stateCode?: string;
  country?: string;
}

export function readAs(header: string): ReadAs {
  const params = new URLSearchParams(header);
  const read: ReadAs = { name: params.get("name") ?? "" };
  for (const key of ["cityId", "state", "stateCode", "country"] as const) {
    const value = params.get(key);
    if (value) read[key] = value;
  }
  return read;
}

const sameCode = (a: string | undefined, b: string): boolean => a?.toUpperCase() === b.toUpperCase();

/** The state read: named as the first result names it, else as read. */
function stateWords(read: ReadAs, first: Place | undefined): string | undefined {
  const asRead = read.stateCode ?? read.state;
  if (asRead === undefined) return undefined;
  const matches = read.stateCode ? sameCode(first?.stateCode, read.stateCode) : sameCode(first?.state, asRead);
  return (matches && first?.state) || asRead;
}

/** The country read: named as the first result names it, else by its code. */
function countryWords(read: ReadAs, first: Place | undefined, countryName: (code: string) => string | undefined) {
  if (read.country === undefined) return undefined;
  return (
    (sameCode(first?.country?.code, read.country) && first?.country?.name) || countryName(read.country) || read.country
  );
}

/**
 * The place read, in words; null when it cannot be told. A city read by its id is named by the
 * first result's city (`first`, which must be that city): "Berlin, Germany".
 */
export function placeRead(
  read: ReadAs,
  first: Place | undefined,
  countryName: (code: string) => string | undefined,
): string | null {
  if (read.cityId !== undefined) {
    if (first?.id !== read.cityId || !first.name) return null;
    const code = first.country?.code;
    return placeWords([first.name, first.country?.name || (code ? countryName(code) : undefined)]);
  }
  return placeWords([stateWords(read, first), countryWords(read, first, countryName)]) || null;
}

/** The line's words before its "as typed" link. */
export function readingWords(kind: "venues" | "cities", read: ReadAs, place: string | null): string {
  const what = read.name ? `${kind} matching “${read.name}”` : kind;
  if (place !== null) return `Showing ${what} in ${place}`;
  return read.name
    ? `Showing results for “${read.name}” in the place you named`
    : "Showing results in the place you named";
}
