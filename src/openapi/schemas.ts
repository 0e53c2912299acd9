/**
 * The schemas of the OpenAPI document (src/openapi/document.ts): JSON shapes, and XML through
 * `xml` hints and XML-specific schemas where the two differ (docs/api.md#result-pages).
 */
import { VENUE_KINDS } from "../data-contract/venue-kinds.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { MAX_RADIUS_KM } from "../params/search-params.ts";
import { MAX_LIMIT } from "../suggest/params.ts";

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const attribute = (schema: Record<string, unknown>) => ({ ...schema, xml: { attribute: true } });

/**
 * A search page: the JSON object (with `type`), and the XML element, whose page fields are
 * attributes and which has no `type`. Without `perPage`, every item is on page 1 (the countries).
 */
function pageSchemas(type: "venues" | "cities" | "countries", list: string, item: string, perPage?: number) {
  const fields = {
    itemsPerPage: perPage === undefined ? { type: "integer", minimum: 1 } : { const: perPage },
    page: perPage === undefined ? { const: 1 } : { type: "integer", minimum: 1 },
    total: { type: "integer", minimum: 1 },
  };
  const items = {
    type: "array",
    minItems: 1,
    ...(perPage === undefined ? {} : { maxItems: perPage }),
    items: ref(item),
  };
  return listSchemas(`${type.charAt(0).toUpperCase()}${type.slice(1)}Page`, type, list, fields, items);
}

/** Suggestions: a page of `limit` items at most, maybe none (docs/api.md#suggestions). */
function suggestionSchemas(type: "venues" | "cities", list: string, item: string) {
  const fields = {
    itemsPerPage: { type: "integer", minimum: 1, maximum: MAX_LIMIT },
    page: { const: 1 },
    total: { type: "integer", minimum: 0, maximum: MAX_LIMIT },
  };
  const items = { type: "array", minItems: 0, maxItems: MAX_LIMIT, items: ref(item) };
  return listSchemas(`${type === "venues" ? "Venue" : "City"}Suggestions`, type, list, fields, items);
}

/** The JSON object (with `type`) and the XML element (page fields as attributes, no `type`) of a list. */
function listSchemas(
  name: string,
  type: string,
  list: string,
  fields: Record<"itemsPerPage" | "page" | "total", Record<string, unknown>>,
  items: Record<string, unknown>,
) {
  return {
    [name]: {
      type: "object",
      required: ["type", "itemsPerPage", "page", "total", list],
      additionalProperties: false,
      properties: { type: { const: type }, ...fields, [list]: items },
    },
    [`${name}Xml`]: {
      type: "object",
      required: ["itemsPerPage", "page", "total", list],
      additionalProperties: false,
      xml: { name: type },
      properties: {
        itemsPerPage: attribute(fields.itemsPerPage),
        page: attribute(fields.page),
        total: attribute(fields.total),
        [list]: items,
      },
    },
  };
}

const stateFields = {
  state: attribute({ type: "string", description: "The state (admin-1) name, when known." }),
  stateCode: attribute({ type: "string", description: "The state (admin-1) code, when known." }),
};

/** A city in full, in the live key order: the lookup's, a city search's, a venue's with VENUE_CITY_DETAIL. */
const cityFields = {
  id: attribute({ type: "string", description: "GeoNames id." }),
  name: attribute({ type: "string" }),
  ...stateFields,
  coords: ref("Coords"),
  country: ref("Country"),
};

/** A suggestion's distance from its focus, which may be anywhere (at most half the Earth's circumference). */
const focusDistance = attribute({
  type: "number",
  minimum: 0,
  maximum: 20_038,
  multipleOf: 0.1,
  description: "Only with a focus (`lat`, `long`): kilometres from it, as `distance` of a search near a point.",
});

const distance = attribute({
  type: "number",
  minimum: 0,
  maximum: MAX_RADIUS_KM,
  multipleOf: 0.1,
  description:
    "Only in a search near a point (`lat`, `long`): kilometres from the point, great-circle, to one decimal " +
    "(a venue: from its own point when it has one, else its city's). In XML an attribute.",
});

/** Why a suggestion is there (docs/api.md#suggestions): the last of its fields, in XML its last child. */
const matched = {
  ...ref("Matched"),
  description:
    "Why it is suggested: the name that holds the typed words, where each is in it, and the place read at the end " +
    "of the text.",
};

/** Why a search's record is there, when asked (`matched=1`: docs/api.md#which-name-matched). */
const searchMatched = {
  ...ref("Matched"),
  description:
    "Only with `matched=1` and a `name`: the name that holds the words, where each is in it, and the place read at " +
    "the end of the text, as a suggestion's. Without it, setlist.fm's shape.",
};

/** A venue's own point and its kind (docs/api.md#venues-at-their-own-place). */
const venuePlace = {
  coords: {
    ...ref("Coords"),
    description: "The venue's own point, when its source has one (MusicBrainz, OpenStreetMap); absent otherwise.",
  },
  kind: attribute({
    type: "string",
    enum: [...VENUE_KINDS],
    description: "What kind of venue it is, from its source's type or tag. In XML an attribute.",
  }),
};

/** The frame of a venue's schema (a search's and a lookup's differ in their city). */
const venueObject = (description: string) => ({
  description,
  type: "object",
  required: ["id", "name", "kind"],
  additionalProperties: false,
  xml: { name: "venue" },
});

/** A venue of a search (a search's and a suggestion's differ in their distance). */
const venueSearchProperties = {
  id: attribute({ type: "string" }),
  name: attribute({ type: "string" }),
  city: {
    description:
      "The venue's city. Which shape is a deployment setting, the same for every venue of every answer: by " +
      "default a VenueCity (`coords` and `country` empty, as setlist.fm documents it); a deployment that sets the var " +
      '`VENUE_CITY_DETAIL = "full"` gives a City, `coords` and `country` filled exactly as in a city search ' +
      "(as the live setlist.fm service does), in JSON and XML.",
    oneOf: [ref("VenueCity"), ref("City")],
  },
  url: { type: "string", format: "uri" },
  ...venuePlace,
};

export const SCHEMAS = {
  Coords: {
    type: "object",
    required: ["lat", "long"],
    additionalProperties: false,
    properties: { lat: attribute({ type: "number" }), long: attribute({ type: "number" }) },
  },
  Country: {
    type: "object",
    required: ["code", "name"],
    additionalProperties: false,
    properties: { code: attribute({ type: "string", pattern: "^[A-Z]{2}$" }), name: attribute({ type: "string" }) },
  },
  Empty: { type: "object", additionalProperties: false, description: "Present but empty, as in setlist.fm." },
  City: {
    description: "A city in full: a city lookup, and a venue's city (see Venue.city).",
    type: "object",
    required: ["id", "name", "coords", "country"],
    additionalProperties: false,
    xml: { name: "city" },
    properties: cityFields,
  },
  SearchCity: {
    description:
      "A city of a city search: a City, with `distance` in a search near a point. In XML each is an element named " +
      "`cities`, as in setlist.fm.",
    type: "object",
    required: ["id", "name", "coords", "country"],
    additionalProperties: false,
    xml: { name: "cities" },
    properties: { ...cityFields, distance, matched: searchMatched },
  },
  VenueCity: {
    description:
      "A venue's city as setlist.fm's venue search gives it by default, in the answer its API documentation " +
      "shows: `coords` and `country` are present but empty (`<coords/><country/>` in XML).",
    type: "object",
    required: ["id", "name", "coords", "country"],
    additionalProperties: false,
    xml: { name: "city" },
    properties: {
      id: attribute({ type: "string" }),
      name: attribute({ type: "string" }),
      ...stateFields,
      coords: { ...ref("Empty"), xml: { name: "coords" } },
      country: { ...ref("Empty"), xml: { name: "country" } },
    },
  },
  Venue: {
    ...venueObject("A venue of a venue search; left without `city` when its city is unknown."),
    properties: { ...venueSearchProperties, distance, matched: searchMatched },
  },
  SuggestedVenue: {
    ...venueObject("A suggested venue: a Venue, with `distance` from the focus when there is one, and `matched`."),
    required: ["id", "name", "kind", "matched"],
    properties: { ...venueSearchProperties, distance: focusDistance, matched },
  },
  VenueDetail: {
    ...venueObject("A venue lookup: the venue with its city in full."),
    properties: {
      id: attribute({ type: "string" }),
      name: attribute({ type: "string" }),
      city: ref("City"),
      url: { type: "string", format: "uri" },
      ...venuePlace,
    },
  },
  SuggestedCity: {
    description: "A suggested city: a City, with `distance` from the focus when there is one, and `matched`.",
    type: "object",
    required: ["id", "name", "coords", "country", "matched"],
    additionalProperties: false,
    xml: { name: "cities" },
    properties: { ...cityFields, distance: focusDistance, matched },
  },
  Matched: {
    description:
      "Why a record is suggested, or found (`matched=1`). `name`: the name that holds the typed words, each the start of a word of its own — " +
      "the record's `name` as shown when it is that one, else the alternate or localized name (a city) or the other " +
      "name (a venue) that does, as the data writes it (`Hok-chiu-chhī` for Fuzhou, `Al Mawşil` for Mosul). " +
      "`spans`: each typed word's match in `name`, in the order typed, as offsets and lengths in UTF-16 code units " +
      "(as JavaScript indexes a string): the characters the typed letters stand for when the word starts so as " +
      "written (`dur` in Düren: offset 0, length 3), the whole word when it matched another way of writing it (`saint` " +
      "in St. Louis, `due` in Düren); when a place was read at the end of the text, the words before it. Typos " +
      "forgiven (`X-Match: fuzzy`): the whole words they were read as. `place`: only when the end of the text was read " +
      "as a place (`club ber`), the place as the data names it — a venue's city, or the record's state or country. In " +
      "XML `<matched name place>` with a `<span offset length/>` per span (JSON always has `spans`).",
    type: "object",
    required: ["name"],
    additionalProperties: false,
    xml: { name: "matched" },
    properties: {
      name: attribute({ type: "string" }),
      spans: { type: "array", items: ref("Span") },
      place: attribute({ type: "string" }),
    },
  },
  Span: {
    description: "Where a typed word is in the name that matched: UTF-16 code units.",
    type: "object",
    required: ["offset", "length"],
    additionalProperties: false,
    xml: { name: "span" },
    properties: {
      offset: attribute({ type: "integer", minimum: 0 }),
      length: attribute({ type: "integer", minimum: 1 }),
    },
  },
  ...pageSchemas("venues", "venue", "Venue", ITEMS_PER_PAGE.venues),
  ...pageSchemas("cities", "cities", "SearchCity", ITEMS_PER_PAGE.cities),
  ...suggestionSchemas("venues", "venue", "SuggestedVenue"),
  ...suggestionSchemas("cities", "cities", "SuggestedCity"),
  // Every country on page 1: itemsPerPage and total are the number of countries.
  ...pageSchemas("countries", "country", "Country"),
  Error: {
    type: "object",
    required: ["code", "status", "message", "timestamp"],
    additionalProperties: false,
    xml: { name: "error" },
    properties: {
      code: { type: "integer" },
      status: { type: "string" },
      message: { type: "string" },
      timestamp: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\+0000$" },
    },
  },
};
