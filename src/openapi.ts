/**
 * The OpenAPI 3.1 document served at /1.0/openapi.json: every route, parameter, response shape
 * (JSON, and XML through `xml` hints and XML-specific schemas where the two differ) and error.
 * test/worker/openapi.test.ts validates live responses against it, so it stays true.
 */
import { LANGUAGES } from "./language.ts";
import { MAX_QUERY_BYTES, MAX_VALUE_LENGTH } from "./params.ts";
import { MAX_PAGE, PER_PAGE } from "./paging.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const attribute = (schema: Record<string, unknown>) => ({ ...schema, xml: { attribute: true } });

const text = (name: string, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string", maxLength: MAX_VALUE_LENGTH },
});

const parameters = {
  name: text(
    "name",
    "Every word is a prefix of some word of the name, in any order; case, accents and punctuation do not matter.",
  ),
  cityId: text("cityId", "The venue's city: its GeoNames id."),
  cityName: text("cityName", "The venue's city name or ASCII name, normalized."),
  state: text("state", "The state (admin-1) name, normalized."),
  stateCode: text("stateCode", "The state (admin-1) code, any case: CA, ENG, 16."),
  country: text("country", "ISO 3166-1 alpha-2 code (any case) or English country name."),
  p: {
    name: "p",
    in: "query",
    required: false,
    description: "Page number, 1 when absent.",
    schema: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
  },
  acceptLanguage: {
    name: "Accept-Language",
    in: "header",
    required: false,
    description: `Language of city, state and country names: ${LANGUAGES.join(", ")} (English when none fits).`,
    schema: { type: "string" },
  },
};

const headers = {
  ETag: { description: "Strong entity tag; send it back in If-None-Match for a 304.", schema: { type: "string" } },
  "X-Cache": {
    description: "HIT when answered from the cache, else MISS.",
    schema: { type: "string", enum: ["HIT", "MISS"] },
  },
  "Content-Language": { description: "The language of the names.", schema: { type: "string", enum: [...LANGUAGES] } },
  "Cache-Control": { schema: { type: "string" } },
};

function ok(description: string, json: string, xml: string) {
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

const errors = {
  "304": { description: "Not modified: If-None-Match matched the ETag." },
  "400": { $ref: "#/components/responses/BadRequest" },
  "401": { $ref: "#/components/responses/Unauthorized" },
  "403": { $ref: "#/components/responses/Forbidden" },
  "404": { $ref: "#/components/responses/NotFound" },
  "405": { $ref: "#/components/responses/MethodNotAllowed" },
  "406": { $ref: "#/components/responses/NotAcceptable" },
  "429": { $ref: "#/components/responses/TooManyRequests" },
  "500": { $ref: "#/components/responses/InternalError" },
  "503": { $ref: "#/components/responses/Unavailable" },
};

/**
 * A search page: the JSON object (with `type`), and the XML element, whose page fields are
 * attributes and which has no `type`.
 */
function pageSchemas(type: "venues" | "cities", perPage: number, list: string, item: string, xmlItem: string) {
  const name = type === "venues" ? "VenuesPage" : "CitiesPage";
  const fields = {
    itemsPerPage: { const: perPage },
    page: { type: "integer", minimum: 1 },
    total: { type: "integer", minimum: 1 },
  };
  const items = (of: string) => ({ type: "array", minItems: 1, maxItems: perPage, items: ref(of) });
  return {
    [name]: {
      type: "object",
      required: ["type", "itemsPerPage", "page", "total", list],
      additionalProperties: false,
      properties: { type: { const: type }, ...fields, [list]: items(item) },
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
        [list]: items(xmlItem),
      },
    },
  };
}

const stateFields = {
  state: attribute({ type: "string", description: "The state (admin-1) name, when known." }),
  stateCode: attribute({ type: "string", description: "The state (admin-1) code, when known." }),
};

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
    type: "object",
    required: ["id", "name", "coords", "country"],
    additionalProperties: false,
    xml: { name: "city" },
    properties: {
      id: attribute({ type: "string", description: "GeoNames id." }),
      name: attribute({ type: "string" }),
      ...stateFields,
      coords: ref("Coords"),
      country: ref("Country"),
    },
  },
  SearchCity: {
    description: "A city of a city search; in XML each is an element named `cities`, as in setlist.fm.",
    allOf: [ref("City")],
    xml: { name: "cities" },
  },
  VenueCity: {
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
    type: "object",
    required: ["id", "name"],
    additionalProperties: false,
    xml: { name: "venue" },
    properties: {
      id: attribute({ type: "string" }),
      name: attribute({ type: "string" }),
      city: ref("VenueCity"),
      url: { type: "string", format: "uri" },
    },
  },
  VenueDetail: {
    type: "object",
    required: ["id", "name"],
    additionalProperties: false,
    xml: { name: "venue" },
    properties: {
      id: attribute({ type: "string" }),
      name: attribute({ type: "string" }),
      city: ref("City"),
      url: { type: "string", format: "uri" },
    },
  },
  ...pageSchemas("venues", PER_PAGE.venues, "venue", "Venue", "Venue"),
  ...pageSchemas("cities", PER_PAGE.cities, "cities", "City", "SearchCity"),
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

export const OPENAPI = {
  openapi: "3.1.0",
  info: {
    title: "Venue & City Search",
    version: "1.0",
    description:
      "setlist.fm's REST API 1.0 venue and city search, on GeoNames data. JSON or XML by Accept (XML when absent), " +
      `names localized by Accept-Language. Every route is also served under /rest (server "/rest"). Query strings over ` +
      `${MAX_QUERY_BYTES} bytes and values over ${MAX_VALUE_LENGTH} characters are a 400.`,
    license: { name: "Data: GeoNames, CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
  },
  servers: [{ url: "/" }, { url: "/rest" }],
  security: [{}, { apiKey: [] }],
  paths: {
    "/1.0/search/venues": {
      get: {
        operationId: "searchVenues",
        summary: "Search venues (30 a page).",
        parameters: [
          parameters.name,
          parameters.cityId,
          parameters.cityName,
          parameters.state,
          parameters.stateCode,
          parameters.country,
          parameters.p,
          ...common,
        ],
        responses: { "200": ok("A page of venues.", "VenuesPage", "VenuesPageXml"), ...errors },
      },
    },
    "/1.0/search/cities": {
      get: {
        operationId: "searchCities",
        summary: "Search cities (50 a page), by name or any GeoNames alternate name.",
        parameters: [
          parameters.name,
          parameters.state,
          parameters.stateCode,
          parameters.country,
          parameters.p,
          ...common,
        ],
        responses: { "200": ok("A page of cities.", "CitiesPage", "CitiesPageXml"), ...errors },
      },
    },
    "/1.0/venue/{venueId}": {
      get: {
        operationId: "getVenue",
        summary: "One venue, with its city in full.",
        parameters: [{ name: "venueId", in: "path", required: true, schema: { type: "string" } }, ...common],
        responses: { "200": ok("The venue.", "VenueDetail", "VenueDetail"), ...errors },
      },
    },
    "/1.0/city/{geoId}": {
      get: {
        operationId: "getCity",
        summary: "One city by its GeoNames id.",
        parameters: [{ name: "geoId", in: "path", required: true, schema: { type: "string" } }, ...common],
        responses: { "200": ok("The city.", "City", "City"), ...errors },
      },
    },
    "/1.0/openapi.json": {
      get: {
        operationId: "getOpenApi",
        summary: "This document.",
        security: [{}],
        responses: {
          "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } },
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
      BadRequest: error("A bad parameter; the message names it."),
      Unauthorized: error("API keys are set and x-api-key is missing."),
      Forbidden: error("API keys are set and x-api-key is unknown."),
      NotFound: error("No match, a page past the end, or an unknown path: message `not found`."),
      MethodNotAllowed: error("Only GET, HEAD and OPTIONS.", { headers: { Allow: { schema: { type: "string" } } } }),
      NotAcceptable: {
        description: "Nothing in Accept can be served; the error is JSON.",
        content: { "application/json": { schema: ref("Error") } },
      },
      TooManyRequests: error("Over the rate limit.", { headers: { "Retry-After": { schema: { type: "integer" } } } }),
      InternalError: error("An unexpected fault (logged)."),
      Unavailable: error("The database is unavailable."),
    },
  },
} as const;
