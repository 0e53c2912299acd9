/**
 * A venue as a row of raw_venues (build-file.ts), the one home of its columns: what every reader's
 * venue becomes in the build file, on the main thread (venue files) or in the generator's worker.
 */
import { normalize, words } from "../../../src/data-contract/normalize.ts";
import { nameIndexText, ownNameTokens, type LocalizedName } from "../../../src/data-contract/name-index.ts";
import { nameToken, OTHER_NAMES } from "../../../src/data-contract/tokens.ts";
import type { VenueInput } from "../sources/venue-input.ts";

export const INSERT_RAW_VENUE = `INSERT INTO raw_venues (id, name, name_norm, words, names, own, shared, name_sets, name_texts,
    localized, city_gid, url, file, line, lat, lng, kind, source, hints, country_hint, placed, own_id, own_url)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export type RawVenueRow = (string | number | null)[];

/**
 * The tokens of a venue's own names (its shown names) when it has others, marked as such
 * (tokens.ts OTHER_NAMES); none when its one name is its own (src/match/own-names.ts).
 */
function ownTokens(v: VenueInput, own: readonly string[]): string {
  if (v.otherNames.length === 0) return "";
  const localized = Object.entries(v.localizedNames).map(([lang, name]) => ({ lang, name }) as LocalizedName);
  return [OTHER_NAMES, ...ownNameTokens(own, v.name, localized)].join(" ");
}

/** The values of INSERT_RAW_VENUE for a venue: its names as search text and tokens, its city hints as name tokens. */
export function rawVenueRow(v: VenueInput): RawVenueRow {
  const index = nameIndexText([v.name, ...v.otherNames], 1);
  const localized = Object.keys(v.localizedNames).length === 0 ? null : JSON.stringify(v.localizedNames);
  const cityGid = v.cityId === null ? null : Number(v.cityId);
  const hints = v.cityHints
    .map((h) => normalize(h))
    .filter((h) => words(h).length > 0)
    .map(nameToken)
    .join(" ");
  return [
    v.id,
    v.name,
    normalize(v.name),
    index.words,
    index.tokens,
    ownTokens(v, index.own),
    index.shared,
    index.sets,
    index.texts,
    localized,
    cityGid,
    v.url,
    v.file,
    v.at,
    v.lat,
    v.lng,
    v.kind,
    v.source,
    hints,
    v.countryHint,
    cityGid === null ? null : "given",
    v.ownLink?.id ?? null,
    v.ownLink?.url ?? null,
  ];
}
