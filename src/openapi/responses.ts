/**
 * The responses of the OpenAPI document (src/openapi/document.ts): answers with their headers, and
 * every error (docs/api.md#errors).
 */
import { CACHE_CONTROL } from "../cache/edge-cache.ts";
import { LANGUAGES } from "../data-contract/languages.ts";
import { RATE_LIMIT_PERIOD_SECONDS } from "../http/access.ts";
import { ALLOWED_METHODS } from "../http/responses.ts";
import { MAX_VALUE_LENGTH } from "../params/search-params.ts";
import { RETRY_AFTER_SECONDS } from "../d1/session.ts";
import { ref } from "./schemas.ts";

/** Headers of a 200 answer (a lookup's; a search adds its own below). */
export const answerHeaders = {
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
    description: "On an answer from the database (X-Cache: MISS): D1 time, rows read and round trips.",
    required: false,
    schema: { type: "string" },
  },
};

/** Headers of a search answer: the lookups' and how the name matched (docs/api.md#typo-tolerance). */
export const searchHeaders = {
  ...answerHeaders,
  "X-Match": {
    description:
      "`exact` when the records match the query as typed (or there is no `name`), `place` when a place was read " +
      "at the end of `name` (see `X-Read-As`), `fuzzy` when they were found forgiving typos.",
    required: true,
    schema: { type: "string", enum: ["exact", "place", "fuzzy"] },
  },
  "X-Read-As": {
    description:
      "Only when a place was read at the end of `name`: the search that answered, as its canonical query " +
      "(parameters sorted, values normalized and percent-encoded, without `p`), e.g. " +
      "`country=US&name=portland&stateCode=OR` or, for a venue's city, `cityId=2950159&name=club`.",
    required: false,
    schema: {
      type: "string",
      pattern: "^[A-Za-z]+=([A-Za-z0-9_.!~*'()-]|%[0-9A-F]{2})*(&[A-Za-z]+=([A-Za-z0-9_.!~*'()-]|%[0-9A-F]{2})*)*$",
    },
  },
  "X-Total-Relation": {
    description:
      "Only when `total` is a lower bound: `gte`. A search that cannot seek (several words, a kind, an area, " +
      "typos forgiven, filters besides a country, a state code and a city id) counts its first candidates " +
      "only (docs/api.md#what-one-request-may-cost); there were more, so at least `total` records match.",
    required: false,
    schema: { type: "string", const: "gte" },
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

export function ok(description: string, json: string, xml: string, headers: Record<string, unknown>) {
  return {
    description,
    headers,
    content: { "application/json": { schema: ref(json) }, "application/xml": { schema: ref(xml) } },
  };
}

export const error = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  ...extra,
  content: { "application/json": { schema: ref("Error") }, "application/xml": { schema: ref("Error") } },
});

/** The errors of every search and lookup, after its own 400. */
export const errors = (badRequest: Record<string, unknown>) => ({
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

/** The errors of the suggestions: no 404, a text that matches nothing yet is an empty list. */
export const suggestErrors = (badRequest: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(errors(badRequest)).filter(([status]) => status !== "404"));

export const badSuggest = error(
  "A bad parameter; the message names it and says why: no `name`, a `limit` other than a whole number from 1 to " +
    "20, a value given twice or over-long, `lat`/`long` out of range or malformed, a malformed `bbox` or `kind`.",
);

export const badSearch = error(
  "A bad parameter; the message names it and says why: a value given twice, over " +
    `${MAX_VALUE_LENGTH} characters or badly percent-encoded, a malformed \`p\`, \`lat\`/\`long\`/\`radius\` out of ` +
    "range or malformed, `lat` without `long` (or the reverse), `radius` without them, `typos` other than 0 or 1.",
);

export const badPage = error(
  "A bad `p`; the message names it and says why: given twice, badly percent-encoded, over " +
    `${MAX_VALUE_LENGTH} characters, or not a page number.`,
);

export const RESPONSES = {
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
};
