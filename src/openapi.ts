/**
 * The OpenAPI 3.1 document served at /1.0/openapi.json: every route, parameter, response shape
 * (JSON, and XML through `xml` hints and XML-specific schemas where the two differ), response
 * header and error. test/worker/openapi.test.ts validates live responses against it, so it stays
 * true. Numbers come from the modules that decide them, never repeated here.
 */
import { RATE_LIMIT_PERIOD_SECONDS } from "./access.ts";
import { CACHE_CONTROL } from "./cache.ts";
import { RETRY_AFTER_SECONDS } from "./db.ts";
import { allowedEdits } from "./fuzzy.ts";
import { ALLOWED_METHODS } from "./http.ts";
import { GEO_ID, GEO_ID_RULE, VENUE_ID, VENUE_ID_RULE } from "./ids.ts";
import { LANGUAGES } from "./language.ts";
import { DEFAULT_RADIUS_KM, MAX_QUERY_BYTES, MAX_RADIUS_KM, MAX_VALUE_LENGTH } from "./params.ts";
import { MAX_PAGE, PER_PAGE } from "./paging.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const attribute = (schema: Record<string, unknown>) => ({ ...schema, xml: { attribute: true } });

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

const NEAR =
  `With \`lat\` and \`long\`, only the records within \`radius\` km of the point are kept (great-circle distance; a ` +
  `venue by its city's coordinates, so a venue without a city is never near), combined with the other filters by ` +
  `AND, nearest first, and each record carries \`distance\`.`;

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
    `Every word is a prefix of some word of ${of}, in any order; case, accents and punctuation do not matter. ` + TYPOS,
  );

const parameters = {
  venueName: nameParameter("the venue name"),
  cityName: nameParameter("the city name or of any of its GeoNames alternate names (`wien` finds Vienna)"),
  cityId: text("cityId", "The venue's city: its GeoNames id."),
  venueCityName: text("cityName", "The venue's city name or ASCII name, normalized."),
  state: text("state", "The state (admin-1) name, normalized."),
  stateCode: text("stateCode", "The state (admin-1) code, any case: CA, ENG, 16."),
  country: text("country", "ISO 3166-1 alpha-2 code (any case) or English country name."),
  p: {
    name: "p",
    in: "query",
    required: false,
    description: "Page number, 1 when absent. A page past the last one is a 404.",
    schema: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
  },
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
  typos: {
    name: "typos",
    in: "query",
    required: false,
    description:
      "`1` (the default): a `name` that matches nothing strictly is searched again forgiving typos (see `name`). " +
      "`0`: strict matching only.",
    schema: { type: "integer", enum: [0, 1], default: 1 },
  },
  acceptLanguage: {
    name: "Accept-Language",
    in: "header",
    required: false,
    description: `Language of city, state and country names: ${LANGUAGES.join(", ")} (English when none fits).`,
    schema: { type: "string" },
  },
};

/** Headers of a 200 answer (a lookup's; a search adds its own below). */
const answerHeaders = {
  ETag: {
    description: "Strong entity tag; send it back in If-None-Match for a 304.",
    required: true,
    schema: { type: "string", pattern: '^"[^"]+"$' },
  },
  "X-Cache": {
    description: "HIT when answered from the cache, else MISS.",
    required: true,
    schema: { type: "string", enum: ["HIT", "MISS"] },
  },
  "Content-Language": {
    description: "The language of the names.",
    required: true,
    schema: { type: "string", enum: [...LANGUAGES] },
  },
  "Cache-Control": { required: true, schema: { type: "string", const: CACHE_CONTROL } },
  "Server-Timing": {
    description: "On an answer from the database (X-Cache: MISS): D1 time and rows read.",
    required: false,
    schema: { type: "string" },
  },
};

/** Headers of a search answer: the lookups' and how the name matched (SPEC §10.1). */
const searchHeaders = {
  ...answerHeaders,
  "X-Match": {
    description:
      "`exact` when the records match the query as typed (or there is no `name`), `fuzzy` when they were found " +
      "forgiving typos.",
    required: true,
    schema: { type: "string", enum: ["exact", "fuzzy"] },
  },
  "X-Corrected-Name": {
    description:
      "Only on a fuzzy answer: the corrected `name`, a reading within the allowed edits that the first record " +
      "matches, in normalized text (like the query, its last word may be a prefix: `zurihc` may read `zuric`), " +
      "percent-encoded as by encodeURIComponent. A client may offer it as “did you mean”.",
    required: false,
    schema: { type: "string", pattern: "^([A-Za-z0-9_.!~*'()-]|%[0-9A-F]{2})+$" },
  },
};

function ok(description: string, json: string, xml: string, headers: Record<string, unknown>) {
  return {
    description,
    headers,
    content: { "application/json": { schema: ref(json) }, "application/xml": { schema: ref(xml) } },
  };
}

const error = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  ...extra,
  content: { "application/json": { schema: ref("Error") }, "application/xml": { schema: ref("Error") } },
});

/** The errors of every search and lookup, after its own 400. */
const errors = (badRequest: Record<string, unknown>) => ({
  "304": { description: "Not modified: If-None-Match matched the ETag." },
  "400": badRequest,
  "401": { $ref: "#/components/responses/Unauthorized" },
  "403": { $ref: "#/components/responses/Forbidden" },
  "404": { $ref: "#/components/responses/NotFound" },
  "405": { $ref: "#/components/responses/MethodNotAllowed" },
  "406": { $ref: "#/components/responses/NotAcceptable" },
  "429": { $ref: "#/components/responses/TooManyRequests" },
  "500": { $ref: "#/components/responses/InternalError" },
  "503": { $ref: "#/components/responses/Unavailable" },
});

/**
 * A search page: the JSON object (with `type`), and the XML element, whose page fields are
 * attributes and which has no `type`.
 */
function pageSchemas(type: "venues" | "cities", perPage: number, list: string, item: string) {
  const name = type === "venues" ? "VenuesPage" : "CitiesPage";
  const fields = {
    itemsPerPage: { const: perPage },
    page: { type: "integer", minimum: 1 },
    total: { type: "integer", minimum: 1 },
  };
  const items = { type: "array", minItems: 1, maxItems: perPage, items: ref(item) };
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

const distance = attribute({
  type: "number",
  minimum: 0,
  maximum: MAX_RADIUS_KM,
  multipleOf: 0.1,
  description:
    "Only in a search near a point (`lat`, `long`): kilometres from the point, great-circle, to one decimal " +
    "(a venue: from its city's coordinates). In XML an attribute.",
});

/** The frame of a venue's schema (a search's and a lookup's differ in their city). */
const venueObject = (description: string) => ({
  description,
  type: "object",
  required: ["id", "name"],
  additionalProperties: false,
  xml: { name: "venue" },
});

const schemas = {
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
    properties: { ...cityFields, distance },
  },
  VenueCity: {
    description:
      "A venue's city as the seed and setlist.fm's venue search give it by default: `coords` and `country` are " +
      "present but empty (`<coords/><country/>` in XML).",
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
    properties: {
      id: attribute({ type: "string" }),
      name: attribute({ type: "string" }),
      city: {
        description:
          "The venue's city. Which shape is a deployment setting, the same for every venue of every answer: by " +
          "default a VenueCity (`coords` and `country` empty, as the seed says); a deployment that sets the var " +
          '`VENUE_CITY_DETAIL = "full"` gives a City, `coords` and `country` filled exactly as in a city search ' +
          "(as the live setlist.fm service does), in JSON and XML.",
        oneOf: [ref("VenueCity"), ref("City")],
      },
      url: { type: "string", format: "uri" },
      distance,
    },
  },
  VenueDetail: {
    ...venueObject("A venue lookup: the venue with its city in full."),
    properties: {
      id: attribute({ type: "string" }),
      name: attribute({ type: "string" }),
      city: ref("City"),
      url: { type: "string", format: "uri" },
    },
  },
  ...pageSchemas("venues", PER_PAGE.venues, "venue", "Venue"),
  ...pageSchemas("cities", PER_PAGE.cities, "cities", "SearchCity"),
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

const common = [parameters.acceptLanguage];
/** What both searches take after their name and city parameters. */
const searchFilters = [
  parameters.state,
  parameters.stateCode,
  parameters.country,
  parameters.lat,
  parameters.long,
  parameters.radius,
  parameters.typos,
  parameters.p,
  ...common,
];

const badSearch = error(
  "A bad parameter; the message names it and says why: a value given twice, over " +
    `${MAX_VALUE_LENGTH} characters or badly percent-encoded, a malformed \`p\`, \`lat\`/\`long\`/\`radius\` out of ` +
    "range or malformed, `lat` without `long` (or the reverse), `radius` without them, `typos` other than 0 or 1.",
);

const pathId = (name: string, pattern: RegExp, rule: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description: `${description} Anything else (${rule}) is a 400 naming \`${name}\`.`,
  schema: { type: "string", pattern: pattern.source },
});

export const OPENAPI = {
  openapi: "3.1.0",
  info: {
    title: "Venue & City Search",
    version: "1.0",
    description:
      "setlist.fm's REST API 1.0 venue and city search, on GeoNames data. JSON or XML by Accept (XML when absent), " +
      `names localized by Accept-Language. Every route is also served under /rest (server "/rest"). Query strings over ` +
      `${MAX_QUERY_BYTES} bytes and values over ${MAX_VALUE_LENGTH} characters are a 400. Beyond setlist.fm, and ` +
      "only when asked for: typo tolerance (`typos`), searches near a point (`lat`, `long`, `radius`), and, as a " +
      'deployment setting (`VENUE_CITY_DETAIL = "full"`), venue cities in full.',
    license: { name: "Data: GeoNames, CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
  },
  servers: [{ url: "/" }, { url: "/rest" }],
  security: [{}, { apiKey: [] }],
  paths: {
    "/1.0/search/venues": {
      get: {
        operationId: "searchVenues",
        summary: `Search venues (${PER_PAGE.venues} a page).`,
        description:
          "Filters combine with AND; no filter at all lists every venue. Order, stable across pages: with `name`, " +
          "exact names first, then names starting with the query, then the rest (a fuzzy answer: fewest edits " +
          "before these tiers); inside each tier venues by their city's population (largest first), then name, " +
          "then id, venues without a city last. Near a point, distance (nearest first) comes before the name " +
          "tiers (after the edits of a fuzzy answer), then the same order.",
        parameters: [parameters.venueName, parameters.cityId, parameters.venueCityName, ...searchFilters],
        responses: {
          "200": ok("A page of venues.", "VenuesPage", "VenuesPageXml", searchHeaders),
          ...errors(badSearch),
        },
      },
    },
    "/1.0/search/cities": {
      get: {
        operationId: "searchCities",
        summary: `Search cities (${PER_PAGE.cities} a page), by name or any GeoNames alternate name.`,
        description:
          "Filters combine with AND; no filter at all lists every city. Order, stable across pages: with `name`, " +
          "exact names first, then names starting with the query, then the rest (a fuzzy answer: fewest edits " +
          "before these tiers); inside each tier by population (largest first), then id. Near a point, distance " +
          "(nearest first) comes before the name tiers (after the edits of a fuzzy answer), then the same order.",
        parameters: [parameters.cityName, ...searchFilters],
        responses: {
          "200": ok("A page of cities.", "CitiesPage", "CitiesPageXml", searchHeaders),
          ...errors(badSearch),
        },
      },
    },
    "/1.0/venue/{venueId}": {
      get: {
        operationId: "getVenue",
        summary: "One venue, with its city in full.",
        parameters: [
          pathId("venueId", VENUE_ID, VENUE_ID_RULE, "The venue id: setlist.fm's are 8 hex digits."),
          ...common,
        ],
        responses: {
          "200": ok("The venue.", "VenueDetail", "VenueDetail", answerHeaders),
          ...errors(error(`A malformed venueId: the message names \`venueId\`; an id is ${VENUE_ID_RULE}.`)),
        },
      },
    },
    "/1.0/city/{geoId}": {
      get: {
        operationId: "getCity",
        summary: "One city by its GeoNames id.",
        parameters: [pathId("geoId", GEO_ID, GEO_ID_RULE, "The city's GeoNames id."), ...common],
        responses: {
          "200": ok("The city.", "City", "City", answerHeaders),
          ...errors(error(`A malformed geoId: the message names \`geoId\`; an id is ${GEO_ID_RULE}.`)),
        },
      },
    },
    "/1.0/openapi.json": {
      get: {
        operationId: "getOpenApi",
        summary: "This document.",
        security: [{}],
        responses: {
          "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } },
          "429": { $ref: "#/components/responses/TooManyRequests" },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      apiKey: {
        type: "apiKey",
        in: "header",
        name: "x-api-key",
        description: "Needed only when the deployment sets API keys.",
      },
    },
    schemas,
    responses: {
      Unauthorized: error("API keys are set and x-api-key is missing."),
      Forbidden: error("API keys are set and x-api-key is unknown."),
      NotFound: error("No match, a page past the end, or an unknown path: message `not found`."),
      MethodNotAllowed: error("Only GET, HEAD and OPTIONS.", {
        headers: { Allow: { required: true, schema: { type: "string", const: ALLOWED_METHODS } } },
      }),
      NotAcceptable: {
        description: "Nothing in Accept can be served; the error is JSON.",
        content: { "application/json": { schema: ref("Error") } },
      },
      TooManyRequests: error("Over the rate limit.", {
        headers: {
          "Retry-After": {
            description: "Seconds until the limit's period is over.",
            required: true,
            schema: { type: "integer", const: RATE_LIMIT_PERIOD_SECONDS },
          },
        },
      }),
      InternalError: error("An unexpected fault (logged; the message is generic)."),
      Unavailable: error(
        "The database is unavailable: a transient failure that outlasted a short retry, or a missing binding " +
          "(the message is generic). Also a database that holds no data yet (before the first import).",
        {
          headers: {
            "Retry-After": {
              description:
                "Seconds to wait before trying again: sent with a transient failure and a missing binding, not " +
                "with a database that holds no data yet.",
              required: false,
              schema: { type: "integer", const: RETRY_AFTER_SECONDS },
            },
          },
        },
      ),
    },
  },
} as const;
