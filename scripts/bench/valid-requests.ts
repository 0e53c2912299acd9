/**
 * Valid requests over every parameter (docs/api.md#what-one-request-may-cost): real words and long
 * names, boxes from tiny to the whole world, points and the largest radius, kinds, every filter at
 * once, deep pages, for both searches and both suggestion endpoints. Every request drawn here is
 * one the API accepts, so its answer must be a 200, a 404 or the 400 of a window or a budget — never
 * a 5xx — and read at most MAX_ROWS_READ rows. The property test (test/worker/wide.test.ts) draws
 * them over the tests' data, the benchmark (npm run bench) over 1M venues. Pure: the words come
 * from the caller (the data's own vocabulary).
 */
import fc from "fast-check";
import { VENUE_KINDS } from "../../src/data-contract/venue-kinds.ts";
import { MAX_PAGE } from "../../src/params/paging.ts";
import { MAX_RADIUS_KM, MAX_VALUE_LENGTH } from "../../src/params/search-params.ts";

/** What the requests are made of: words and places of the data they are sent to. */
export interface Vocabulary {
  /** Words of names, the commonest first. */
  words: readonly string[];
  /** Names of cities, as the data writes them. */
  cities: readonly string[];
  /** Country codes and names, state names and codes. */
  countries: readonly string[];
  states: readonly string[];
  stateCodes: readonly string[];
  /** Ids of cities. */
  cityIds: readonly string[];
}

/** The most rows of D1 that one request may read (docs/api.md#what-one-request-may-cost). */
export const MAX_ROWS_READ = 20_000;

export type Endpoint = "search/venues" | "search/cities" | "suggest/venues" | "suggest/cities";
export const ENDPOINTS: readonly Endpoint[] = ["search/venues", "search/cities", "suggest/venues", "suggest/cities"];

/** A request: its endpoint and query string (percent-encoded). */
export interface ValidRequest {
  endpoint: Endpoint;
  query: string;
}

export const pathOf = (r: ValidRequest): string => `/1.0/${r.endpoint}${r.query === "" ? "" : `?${r.query}`}`;

/** Words joined with spaces, cut to the longest value the API takes (whole words). */
function nameOf(words: readonly string[]): string {
  let name = "";
  for (const w of words) {
    const next = name === "" ? w : `${name} ${w}`;
    if (Array.from(next).length > MAX_VALUE_LENGTH) break;
    name = next;
  }
  return name;
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** A box from a few metres to the whole world, crossing the antimeridian at times. */
const box = fc
  .record({
    west: fc.double({ min: -180, max: 180, noNaN: true }),
    south: fc.double({ min: -90, max: 90, noNaN: true }),
    width: fc.oneof(fc.constant(360), fc.double({ min: 0.001, max: 360, noNaN: true })),
    height: fc.oneof(fc.constant(180), fc.double({ min: 0.001, max: 180, noNaN: true })),
  })
  .map(({ west, south, width, height }) => {
    if (width >= 360 && height >= 180) return "-180,-90,180,90";
    const s = Math.min(south, 90 - Math.min(height, 180));
    const n = Math.min(90, s + height);
    const east = west + Math.min(width, 359.999);
    const e = east > 180 ? east - 360 : east;
    return [round(west, 3), round(Math.max(-90, s), 3), round(e, 3), round(n, 3)].join(",");
  });

const point = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }).map((n) => round(n, 4)),
  long: fc.double({ min: -180, max: 180, noNaN: true }).map((n) => round(n, 4)),
});

/** A page: the first ones mostly, deep ones often, the deepest a whole number may be. */
const page = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }) },
  { weight: 3, arbitrary: fc.integer({ min: 6, max: 400 }) },
  { weight: 2, arbitrary: fc.integer({ min: 401, max: 50_000 }) },
  { weight: 1, arbitrary: fc.constant(MAX_PAGE) },
);

/** The arbitraries of one vocabulary's parameters. */
function parameters(v: Vocabulary) {
  const word = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...v.words.slice(0, 50)) },
    { weight: 3, arbitrary: fc.constantFrom(...v.words) },
    { weight: 2, arbitrary: fc.constantFrom(...v.words).map((w) => w.slice(0, Math.max(1, w.length >> 1))) },
    { weight: 1, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz") },
    { weight: 1, arbitrary: fc.constantFrom(...v.cities) },
  );
  const name = fc.oneof(
    { weight: 3, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }) },
    { weight: 2, arbitrary: fc.array(word, { minLength: 4, maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"), { minLength: 10, maxLength: 50 }),
    },
  );
  return {
    name: name.map(nameOf).filter((n) => n !== ""),
    cityName: fc.constantFrom(...v.cities),
    cityId: fc.constantFrom(...v.cityIds),
    country: fc.constantFrom(...v.countries),
    state: fc.constantFrom(...v.states),
    stateCode: fc.constantFrom(...v.stateCodes),
    kind: fc.constantFrom(...VENUE_KINDS),
    typos: fc.constantFrom("0", "1"),
    places: fc.constantFrom("0", "1"),
  };
}

/** Optional parameters: none, one or two of them mostly, every one at times. */
function some(arbs: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Record<string, string>> {
  const keys = Object.keys(arbs);
  const chosen = fc.oneof(
    { weight: 3, arbitrary: fc.constant<string[]>([]) },
    { weight: 4, arbitrary: fc.subarray(keys, { minLength: 1, maxLength: 2 }) },
    { weight: 1, arbitrary: fc.subarray(keys) },
    { weight: 1, arbitrary: fc.constant(keys) },
  );
  return chosen.chain((list) => fc.record(Object.fromEntries(list.map((k) => [k, arbs[k] as fc.Arbitrary<string>]))));
}

/** Valid requests of one endpoint over a vocabulary. */
export function validRequests(v: Vocabulary, endpoint: Endpoint): fc.Arbitrary<ValidRequest> {
  const a = parameters(v);
  const venues = endpoint.endsWith("venues");
  const suggest = endpoint.startsWith("suggest");
  const place = fc.oneof(
    fc.constant({}),
    box.map((bbox) => ({ bbox })),
    fc
      .tuple(point, fc.option(fc.oneof(fc.constant(MAX_RADIUS_KM), fc.integer({ min: 1, max: MAX_RADIUS_KM }))))
      .map(([p, radius]) => ({
        lat: String(p.lat),
        long: String(p.long),
        ...(radius === null || suggest ? {} : { radius: String(radius) }),
      })),
  );
  const filters = some({
    country: a.country,
    state: a.state,
    stateCode: a.stateCode,
    typos: a.typos,
    places: a.places,
    ...(venues ? { cityName: a.cityName, cityId: a.cityId, kind: a.kind } : {}),
  });
  const name = suggest ? a.name : fc.option(a.name, { nil: undefined });
  const paging = suggest
    ? fc.integer({ min: 1, max: 20 }).map((limit) => ({ limit: String(limit) }))
    : page.map((p) => ({ p: String(p) }));
  return fc.tuple(name, filters, place, paging).map(([n, f, at, more]) => {
    const params = new URLSearchParams({ ...(n === undefined ? {} : { name: n }), ...f, ...at, ...more });
    return { endpoint, query: params.toString().replaceAll("+", "%20") };
  });
}

/** Valid requests of every endpoint. */
export const anyValidRequest = (v: Vocabulary): fc.Arbitrary<ValidRequest> =>
  fc.oneof(...ENDPOINTS.map((e) => validRequests(v, e)));

/** The widest request of each class: the most words, the largest box and radius, every filter, the deepest page. */
const LONGEST_NAME = "the royal hall of the arts and sciences of the city of new orleans on the river by the sea at";
const MANY_LETTERS = Array.from("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx").join(" ");
export const WIDEST: readonly string[] = [
  `/1.0/search/venues?name=${encodeURIComponent(LONGEST_NAME)}`,
  `/1.0/search/cities?name=${encodeURIComponent(MANY_LETTERS)}`,
  `/1.0/suggest/venues?name=${encodeURIComponent(LONGEST_NAME)}&limit=20`,
  `/1.0/suggest/cities?name=${encodeURIComponent(MANY_LETTERS)}&limit=20`,
  `/1.0/search/venues?name=${encodeURIComponent(LONGEST_NAME)}&bbox=-180,-90,180,90&kind=club&country=DE&state=Berlin&stateCode=16&cityName=berlin&cityId=2950159`,
  "/1.0/search/venues?bbox=-180,-90,180,90&p=33",
  "/1.0/search/venues?bbox=-180,-90,180,90&p=999999",
  "/1.0/search/cities?bbox=-180,-90,180,90&p=20",
  "/1.0/search/cities?bbox=179,-90,-179,90&p=20",
  "/1.0/search/venues?bbox=-180,51.5,180,51.501",
  // A strip from pole to pole: the longest edges, the window's last page (the default data's most rows).
  "/1.0/search/venues?bbox=0,-90,9.548,90&p=33",
  "/1.0/search/venues?bbox=-5,-90,9.548,90&p=33",
  "/1.0/search/cities?bbox=0,-90,9.548,90&p=20",
  // One word in a large box at the window's last page: its name tiers read one after another (src/geo/box-page.ts).
  "/1.0/search/venues?name=club&bbox=-10,35,30,60&p=33",
  "/1.0/search/cities?name=s&bbox=-130,20,-60,50&p=20",
  // A word longer than FTS5's prefix index in a large box: its tiers read as a union, each its own candidates.
  "/1.0/search/venues?name=theatre&bbox=-10,35,30,60&p=33",
  // One letter, or a common word, near a dense point at the window's last pages: the circle its page
  // is read from holds the most records (src/geo/near-pages.ts).
  "/1.0/search/venues?name=s&lat=50.11&long=8.68&radius=500&p=33",
  "/1.0/search/venues?name=s&lat=52.37&long=4.9&radius=360&p=30",
  "/1.0/search/venues?name=the&lat=40.7&long=-74&radius=360&p=30",
  "/1.0/search/cities?name=s&lat=50.11&long=8.68&radius=500&p=20",
  "/1.0/search/venues?name=club%20berlin&lat=52.52&long=13.40&radius=500&p=33",
  "/1.0/search/venues?name=clbu%20berlni&lat=90&long=180&radius=500&p=33",
  "/1.0/search/cities?name=a%20e&bbox=-180,-85,180,85&p=20",
  // Two short words without an area at the window's last page: thousands of matches, each asked whether one name holds both.
  "/1.0/search/cities?name=a%20e&p=20",
  "/1.0/search/venues?name=the%20c&p=33",
  "/1.0/search/venues?name=s%20s%20s%20s%20s%20s%20s&p=33",
  "/1.0/search/venues?kind=venue&p=33",
  "/1.0/search/venues?p=999999",
  "/1.0/search/venues?name=s&p=999999",
  "/1.0/search/cities?name=s%20c%20b%20d%20e%20f%20g%20h&typos=1&p=20",
  "/1.0/suggest/venues?name=club%20berlin&bbox=14.36,-53.485,104.36,-8.485&limit=20",
  "/1.0/suggest/venues?name=s%20c&lat=-90&long=-180&kind=club&country=DE&limit=20",
  // A typo read several ways in every word: many tiers in one statement, once past D1's 100 bound values (a 500).
  "/1.0/suggest/cities?name=farm%20%27s-Hertogenbosch%20kalyfrnya&stateCode=02&lat=0&long=0&limit=1",
];
