/**
 * The kinds of venue (docs/api.md#venues-at-their-own-place): what the import stores from a
 * source's type or tag and what the `kind` filter accepts. Generated venues are "venue".
 */
export const VENUE_KINDS = [
  "venue",
  "club",
  "concert hall",
  "theatre",
  "stadium",
  "arena",
  "amphitheatre",
  "festival",
  "other",
] as const;

export type VenueKind = (typeof VENUE_KINDS)[number];

export const isVenueKind = (value: string): value is VenueKind => (VENUE_KINDS as readonly string[]).includes(value);
