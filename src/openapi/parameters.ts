/**
 * The parameters of the OpenAPI document (src/openapi/document.ts), with the numbers of the modules
 * that decide them (docs/api.md#parameters).
 */
import { lastPageInWindow, RESULT_WINDOW } from "../params/window.ts";
import { allowedEdits } from "../data-contract/typo-keys.ts";
import { LANGUAGES } from "../data-contract/languages.ts";
import { MAX_PAGE } from "../params/paging.ts";
import { VENUE_KINDS } from "../data-contract/venue-kinds.ts";
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM, MAX_VALUE_LENGTH } from "../params/search-params.ts";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../suggest/params.ts";

/** The shortest query word that may differ from a word of a name by `edits` edits (§10.1). */
function shortestWithEdits(edits: number): number {
  let length = 1;
  while (allowedEdits(length) < edits) length++;
  return length;
}
const ONE_EDIT = shortestWithEdits(1);
const TWO_EDITS = shortestWithEdits(2);

const TYPOS =
  `When the strict match finds nothing (and \`typos\` is not 0), the search runs again forgiving typos: a query word ` +
  `of ${ONE_EDIT} to ${TWO_EDITS - 1} letters may differ from a word of the name by one edit, a word of ` +
  `${TWO_EDITS} or more letters by two (an edit is a letter inserted, deleted or substituted, or two neighbouring ` +
  `letters swapped, counted on the normalized text); shorter words are not forgiven. The last query word still ` +
  `matches as a prefix (as you type: \`filmore aud\`, \`berln\`). Such an answer is ordered by fewest edits first and ` +
  `carries \`X-Match: fuzzy\` and \`X-Corrected-Name\`. A strict answer is never changed by this.`;

const PLACES =
  "When no record's name is the text as typed, a place at its end is read too (`Portland, OR`, `london uk`, " +
  "`club berlin`): its last one to four words as a country (a code, a name in a served language, `UK`, `USA`), a " +
  "region (an admin-1 code or name: `OR`, `Ontario`, `Bavaria`) and, for venues, a city; the rest is searched as the " +
  "name in that place. The reading answers when its best record ranks in a better name tier than the text as typed " +
  "(or nothing matches as typed), with `X-Match: place` and `X-Read-As`; when the text names a place and nothing " +
  "matches there, typos are forgiven in that place only. `St`/`Saint`, `Ste`/`Sainte`, `Ft`/`Fort`, `Mt`/`Mount`, " +
  "`&`/`and` and German `ae`/`oe`/`ue` for ä/ö/ü are read alike. Not with `lat`/`long` or `bbox`.";

const NEAR =
  `With \`lat\` and \`long\`, only the records within \`radius\` km of the point are kept (great-circle distance; a ` +
  `venue by its own point, else its city's, so a venue with neither is never near), combined with the other filters ` +
  `by AND, nearest first, and each record carries \`distance\`.`;

const page = (description: string) => ({
  name: "p",
  in: "query",
  required: false,
  description,
  schema: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
});

const text = (name: string, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string", maxLength: MAX_VALUE_LENGTH },
});

const nameParameter = (of: string) =>
  text(
    "name",
    `Every word is a prefix of some word of ${of}, in any order; case, accents and punctuation do not matter. ` +
      `${TYPOS} ${PLACES}`,
  );

export const parameters = {
  venueName: nameParameter(
    "the venue's name or of any of its other names (aliases, old names, its names in other languages and scripts)",
  ),
  cityName: nameParameter("the city name or of any of its GeoNames alternate names (`wien` finds Vienna)"),
  cityId: text("cityId", "The venue's city: its GeoNames id."),
  venueCityName: text("cityName", "The venue's city name or ASCII name, normalized."),
  state: text("state", "The state (admin-1) name, normalized."),
  stateCode: text("stateCode", "The state (admin-1) code, any case: CA, ENG, 16."),
  country: text("country", "ISO 3166-1 alpha-2 code (any case) or English country name."),
  p: page(
    "Page number, 1 when absent. A page past the last one is a 404. A search whose order is stored serves any page " +
      "(every record, a country, a country with a state code, a city id, a name of one word alone); any other " +
      `serves its first ${RESULT_WINDOW.toLocaleString("en-US")} records (pages 1–${lastPageInWindow("venues")} of venues, ` +
      `1–${lastPageInWindow("cities")} of cities) and answers a page beyond them with a 400 naming the window. Its total ` +
      "is then counted over its first matches: `X-Total-Relation: gte` says when it is a lower bound.",
  ),
  countriesPage: page("Page number, 1 when absent. Every country is on page 1: any other page is past the end, a 404."),
  lat: {
    name: "lat",
    in: "query",
    required: false,
    description:
      "Latitude of a point, decimal degrees in plain decimal notation (`47.3769`, no exponent); only together with " +
      `\`long\` (one without the other is a 400). Taken to 4 decimals. ${NEAR}`,
    schema: { type: "number", minimum: -90, maximum: 90 },
  },
  long: {
    name: "long",
    in: "query",
    required: false,
    description:
      "Longitude of the point, decimal degrees in plain decimal notation (`8.5417`); only together with `lat`. " +
      "Taken to 4 decimals.",
    schema: { type: "number", minimum: -180, maximum: 180 },
  },
  radius: {
    name: "radius",
    in: "query",
    required: false,
    description:
      `Kilometres around \`lat\`/\`long\`: more than 0, at most ${MAX_RADIUS_KM}, ${DEFAULT_RADIUS_KM} when ` +
      "absent. Only with `lat` and `long` (alone it is a 400).",
    schema: { type: "number", exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: DEFAULT_RADIUS_KM },
  },
  bbox: {
    name: "bbox",
    in: "query",
    required: false,
    description:
      "`minLong,minLat,maxLong,maxLat` in decimal degrees (the GeoJSON order): only the records inside the box are " +
      "kept, edges included (a venue by its own point, else its city's), combined with the other filters by AND, in " +
      "the usual order. `minLong` above `maxLong` is a box across the antimeridian. Taken to 5 decimals. Not together " +
      "with `lat`/`long`; malformed, out of range, or `minLat` above `maxLat`: a 400 naming `bbox`.",
    schema: { type: "string", pattern: "^[^,]+,[^,]+,[^,]+,[^,]+$", maxLength: MAX_VALUE_LENGTH },
  },
  kind: {
    name: "kind",
    in: "query",
    required: false,
    description:
      "Only venues of this kind (from the MusicBrainz type or the OpenStreetMap tag; generated venues from " +
      "their name). Anything else is a 400 naming `kind`.",
    schema: { type: "string", enum: [...VENUE_KINDS] },
  },
  typos: {
    name: "typos",
    in: "query",
    required: false,
    description:
      "`1` (the default): a `name` that matches nothing strictly is searched again forgiving typos (see `name`). " +
      "`0`: strict matching only.",
    schema: { type: "integer", enum: [0, 1], default: 1 },
  },
  places: {
    name: "places",
    in: "query",
    required: false,
    description:
      "`1` (the default): a place at the end of `name` may be read as filters (see `name`). `0`: the name is " +
      "searched as typed.",
    schema: { type: "integer", enum: [0, 1], default: 1 },
  },
  matched: {
    name: "matched",
    in: "query",
    required: false,
    description:
      "`1`: with `name`, each record carries `matched`, as a suggestion does: the name of it that holds the words " +
      "(the shown one when it is that one, else the other name, an alias or a name in another language), their " +
      "spans in it, and the place read at the end of the text. `0` (the default): setlist.fm's shape, unchanged.",
    schema: { type: "integer", enum: [0, 1], default: 0 },
  },
  acceptLanguage: {
    name: "Accept-Language",
    in: "header",
    required: false,
    description: `Language of city, state and country names: ${LANGUAGES.join(", ")} (English when none fits).`,
    schema: { type: "string" },
  },
};

export const common = [parameters.acceptLanguage];

/** The suggestions' own parameters (docs/api.md#suggestions). */
const suggestParameters = {
  name: {
    name: "name",
    in: "query",
    required: true,
    description:
      "The text as it is being typed: the last word a prefix, the words before it whole words or prefixes, a place " +
      "at the end read while it is typed (`club ber`: the clubs of Berlin); typos forgiven in the words before the " +
      "last, and in the last once it has 4 letters. Missing: a 400.",
    schema: { type: "string", maxLength: MAX_VALUE_LENGTH },
  },
  limit: {
    name: "limit",
    in: "query",
    required: false,
    description: `How many suggestions at most: ${1} to ${MAX_LIMIT}, ${DEFAULT_LIMIT} when absent; else a 400.`,
    schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  lat: {
    ...parameters.lat,
    description:
      "With `long`, a focus: nearness is blended with size (a nearer Springfield before a larger far one, a " +
      "metropolis before a hamlet next door), and each suggestion carries `distance`. Orders, does not filter.",
  },
};

/** What the suggestions take besides `name` (both) and the venue's city and kind (venues). */
export const suggestFilters = [
  suggestParameters.name,
  parameters.state,
  parameters.stateCode,
  parameters.country,
  suggestParameters.lat,
  parameters.long,
  parameters.bbox,
  parameters.typos,
  parameters.places,
  suggestParameters.limit,
  ...common,
];
/** What both searches take after their name and city parameters. */
export const searchFilters = [
  parameters.state,
  parameters.stateCode,
  parameters.country,
  parameters.lat,
  parameters.long,
  parameters.radius,
  parameters.bbox,
  parameters.typos,
  parameters.places,
  parameters.matched,
  parameters.p,
  ...common,
];

export const pathId = (name: string, pattern: RegExp, rule: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description: `${description} Anything else (${rule}) is a 400 naming \`${name}\`.`,
  schema: { type: "string", pattern: pattern.source },
});
