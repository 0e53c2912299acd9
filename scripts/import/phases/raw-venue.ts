/**
 * A venue as a row of raw_venues (build-file.ts), the one home of its columns: what every reader's
 * venue becomes in the build file, on the main thread (venue files) or in the generator's worker.
 */
import { normalize, words } from "../../../src/data-contract/normalize.ts";
import { nameIndexText } from "../../../src/data-contract/name-index.ts";
import { nameToken } from "../../../src/data-contract/tokens.ts";
import type { VenueInput } from "../sources/venue-input.ts";

export const INSERT_RAW_VENUE = `INSERT INTO raw_venues (id, name, name_norm, words, names, shared, name_sets, name_texts,
    localized, city_gid, url, file, line, lat, lng, kind, source, hints, country_hint, placed, own_id, own_url)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export type RawVenueRow = (string | number | null)[];

/** The values of INSERT_RAW_VENUE for a venue: its names as search text and tokens, its city hints as name tokens. */
export function rawVenueRow(v: VenueInput): RawVenueRow {
  const index = nameIndexText([v.name, ...v.otherNames]);
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
