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
    parts.push(slug(city.name));
    if (city.countryCode === "US" && city.admin1Code) parts.push(slug(city.admin1Code));
    parts.push(city.countryCode === "US" ? "usa" : slug(city.countryName));
  }
  parts.push(venue.id);
  return `https://www.setlist.fm/venue/${parts.filter(Boolean).join("-")}.html`;
}
