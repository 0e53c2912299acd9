import { normalize } from "../../../src/data-contract/normalize.ts";

/**
 * A setlist.fm-style URL slug (docs/api.md#ids-and-urls): ASCII lower case, `&` as `and`, words joined by `-`.
 * Letters with no ASCII form (other scripts) are dropped.
 */
function slug(text: string): string {
  return normalize(text.replace(/&/g, " and "))
    .replace(/[^a-z0-9 ]+/g, "")
    .trim()
    .replace(/ +/g, "-");
}

/** Slugs of city and country names, which repeat across a city's venues (a bound on what is kept). */
const placeSlugs = new Map<string, string>();
function placeSlug(text: string): string {
  let found = placeSlugs.get(text);
  if (found === undefined) {
    if (placeSlugs.size >= 10_000) placeSlugs.clear();
    placeSlugs.set(text, (found = slug(text)));
  }
  return found;
}

/**
 * A generated venue's URL:
 * https://www.setlist.fm/venue/{name}-{city}-{state code, US only}-{country}-{id}.html
 */
export function venueUrl(
  venue: { id: string; name: string },
  city: { name: string; countryCode: string; countryName: string; admin1Code: string | null } | null,
): string {
  const parts = [slug(venue.name)];
  if (city) {
    parts.push(placeSlug(city.name));
    if (city.countryCode === "US" && city.admin1Code) parts.push(placeSlug(city.admin1Code));
    parts.push(city.countryCode === "US" ? "usa" : placeSlug(city.countryName));
  }
  parts.push(venue.id);
  return `https://www.setlist.fm/venue/${parts.filter(Boolean).join("-")}.html`;
}
