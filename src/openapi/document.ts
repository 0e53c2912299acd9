/**
 * The OpenAPI 3.1 document served at /1.0/openapi.json: every route, parameter, response shape
 * and header, and every error. test/worker/openapi.test.ts validates live responses against it,
 * so it stays true; docs/api.md is the same contract in prose. Numbers come from the modules that
 * decide them, never repeated here.
 */
import { GEO_ID, GEO_ID_RULE, VENUE_ID, VENUE_ID_RULE } from "../data-contract/ids.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { MAX_QUERY_BYTES, MAX_VALUE_LENGTH } from "../params/search-params.ts";
import { common, parameters, pathId, searchFilters, suggestFilters } from "./parameters.ts";
import {
  answerHeaders,
  badPage,
  badSearch,
  badSuggest,
  error,
  errors,
  ok,
  RESPONSES,
  searchHeaders,
  suggestErrors,
} from "./responses.ts";
import { SCHEMAS } from "./schemas.ts";
import { creditText, type Credits } from "../data-contract/credits.ts";

/** The document's info: what the API is, and whose data it serves under which licence (docs/api.md#data-credits). */
function info(credits: Credits) {
  return {
    title: "Venue & City Search",
    version: "1.0",
    description:
      "setlist.fm's REST API 1.0 venue, city and country search, on GeoNames data. JSON or XML by Accept (XML when absent), " +
      `names localized by Accept-Language. Every route is also served under /rest (server "/rest"). Query strings over ` +
      `${MAX_QUERY_BYTES} bytes and values over ${MAX_VALUE_LENGTH} characters are a 400. Beyond setlist.fm, and ` +
      "only when asked for: typo tolerance (`typos`), searches near a point (`lat`, `long`, `radius`), and, as a " +
      'deployment setting (`VENUE_CITY_DETAIL = "full"`), venue cities in full. ' +
      creditText(credits),
    license: { name: "Data: GeoNames, CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    /** Every source of the data served, for clients that show it (the licences ask them to credit it). */
    "x-data-credits": credits.sources,
  };
}

const SUGGEST_ORDER =
  "For a search box that answers at every keystroke. The answer has the searches' shape, `itemsPerPage` the " +
  "`limit`, `total` the suggestions given (an empty list is a 200). Order: the likelihood that a person typing " +
  "the text means the record — a city by its population, its main name starting with the text counting over " +
  "another name or a word (`tok`: Tokyo before Tok, Alaska), nearness blended in around a focus. Each suggestion " +
  "says why it is there (`matched`: the name that holds the typed words and where they are in it).";

const suggestHeaders = { ...answerHeaders, "X-Match": searchHeaders["X-Match"] };

/** Everything but the info: the servers, security, paths and components. */
const OPERATIONS = {
  servers: [{ url: "/" }, { url: "/rest" }],
  security: [{}, { apiKey: [] }],
  paths: {
    "/1.0/search/venues": {
      get: {
        operationId: "searchVenues",
        summary: `Search venues (${ITEMS_PER_PAGE.venues} a page).`,
        description:
          "Filters combine with AND; no filter at all lists every venue. Order, stable across pages: with `name`, " +
          "exact names first, then names starting with the query, then the rest (a fuzzy answer: fewest edits " +
          "before these tiers); inside each tier venues by their city's population (largest first), then name, " +
          "then id, venues without a city last. Near a point, distance (nearest first) comes before the name " +
          "tiers (after the edits of a fuzzy answer), then the same order.",
        parameters: [
          parameters.venueName,
          parameters.cityId,
          parameters.venueCityName,
          parameters.kind,
          ...searchFilters,
        ],
        responses: {
          "200": ok("A page of venues.", "VenuesPage", "VenuesPageXml", searchHeaders),
          ...errors(badSearch),
        },
      },
    },
    "/1.0/search/cities": {
      get: {
        operationId: "searchCities",
        summary: `Search cities (${ITEMS_PER_PAGE.cities} a page), by name or any GeoNames alternate name.`,
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
    "/1.0/suggest/venues": {
      get: {
        operationId: "suggestVenues",
        summary: "Venues a text being typed most likely means, the likeliest first (no pages).",
        description: SUGGEST_ORDER + " A venue counts by its city's population and its kind.",
        parameters: [parameters.cityId, parameters.venueCityName, parameters.kind, ...suggestFilters],
        responses: {
          "200": ok("The suggestions (maybe none).", "VenueSuggestions", "VenueSuggestionsXml", suggestHeaders),
          ...suggestErrors(badSuggest),
        },
      },
    },
    "/1.0/suggest/cities": {
      get: {
        operationId: "suggestCities",
        summary: "Cities a text being typed most likely means, the likeliest first (no pages).",
        description: SUGGEST_ORDER,
        parameters: suggestFilters,
        responses: {
          "200": ok("The suggestions (maybe none).", "CitySuggestions", "CitySuggestionsXml", suggestHeaders),
          ...suggestErrors(badSuggest),
        },
      },
    },
    "/1.0/search/countries": {
      get: {
        operationId: "searchCountries",
        summary: "Every country of the data, on one page.",
        description:
          "Every country the served data holds (all of GeoNames' countryInfo as imported), on page 1: " +
          "`itemsPerPage` and `total` are the number of countries. Names follow Accept-Language, sorted by name " +
          "in that language, then by code. No other parameters; unknown ones are ignored.",
        parameters: [parameters.countriesPage, ...common],
        responses: {
          "200": ok("Every country.", "CountriesPage", "CountriesPageXml", answerHeaders),
          ...errors(badPage),
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
    schemas: SCHEMAS,
    responses: RESPONSES,
  },
} as const;

/** The document, crediting the data sources of the served import. */
export const openApiDocument = (credits: Credits) => ({ openapi: "3.1.0", info: info(credits), ...OPERATIONS });
