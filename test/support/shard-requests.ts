/**
 * Requests drawn from the venues of a database of a shard plan (docs/deploy.md#past-one-database):
 * those whose filters lie in the region of one venue database, and broader ones.
 */
import type Database from "better-sqlite3";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { regionHolds, SHARD_PLAN_KEY, shardCell, type ShardManifest } from "../../src/data-contract/shards.ts";
import { searchRequest } from "../../scripts/sql/explain.ts";
import { areaOf } from "../../src/params/search-params.ts";
import { filterPlace, shardsFor } from "../../src/d1/shards.ts";
import { shardPlacesSql } from "../../src/query/shard-places.ts";
import { anonymous, numbered } from "../../src/sql/sql.ts";
import { areaBrowseMerge, firstTrip } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";
import { PLACED_CANDIDATES } from "../../src/match/capped.ts";

export interface VenueRow {
  id: string;
  name: string;
  kind: string;
  country: string | null;
  admin1: string | null;
  city: string;
  cityName: string;
  lat: number;
  lng: number;
}

export const venuesOf = (db: Database.Database): VenueRow[] =>
  db
    .prepare(
      `SELECT v.id, v.name, v.kind, c.country_code AS country, c.admin1_code AS admin1, c.id AS city, c.name AS cityName,
              c.lat, c.lng
       FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos ORDER BY v.pos`,
    )
    .all() as VenueRow[];

/** The cities of a database by pos, each as "pos country/state/cell" (its place as the plan reads it). */
export const placesOf = (db: Database.Database): string[] =>
  (
    db
      .prepare("SELECT pos, country_code, coalesce(admin1_code, '') AS state, lat, lng FROM cities ORDER BY pos")
      .all() as {
      pos: number;
      country_code: string;
      state: string;
      lat: number;
      lng: number;
    }[]
  ).map((c) => `${String(c.pos)} ${c.country_code}/${c.state}/${String(shardCell(c.lat, c.lng))}`);

/** How many times the places' words are counted in a database's vocabulary (its cities' words). */
export const placeWords = (db: Database.Database): number =>
  Number(db.prepare("SELECT sum(cities) FROM words").pluck().get());

/** The venue database (from 0) whose regions hold a place of placesOf(), -1 for none. */
export function holderOf(manifest: ShardManifest, place: string): number {
  const [country = "", state = "", cell = ""] = place.split(" ")[1]?.split("/") ?? [];
  return manifest.findIndex((m) => m.regions.some((r) => regionHolds(r, { country, state, cell: Number(cell) })));
}

export const manifestOf = (db: Database.Database): ShardManifest =>
  JSON.parse(
    (db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(SHARD_PLAN_KEY) as string | undefined) ?? "[]",
  ) as ShardManifest;

/** The filter of the whole region that holds `v`: its country, or its state where the country is split, or its city. */
export function regionFilter(v: VenueRow, manifest: ShardManifest): string {
  const regions = manifest.flatMap((s) => s.regions).filter((r) => r.country === v.country);
  if (regions.some((r) => r.state === undefined)) return `country=${v.country}`;
  const state = regions.filter((r) => r.state === (v.admin1 ?? ""));
  return state.some((r) => r.cell === undefined)
    ? `country=${v.country}&stateCode=${v.admin1 ?? ""}`
    : `cityId=${v.city}`;
}

/** Requests whose filters all lie in `region`, the region of `v`: with its name, city, kind, a box and a circle around it. */
export function requestsNear(v: VenueRow, region: string): string[] {
  const c = region;
  const first = words(v.name)[0] ?? "a";
  const typo = first.length >= 5 ? first.slice(0, 2) + first.slice(3) : first;
  const box = [v.lng - 0.5, v.lat - 0.5, v.lng + 0.5, v.lat + 0.5].map((x) => x.toFixed(3)).join(",");
  return [
    `/1.0/search/venues?${c}`,
    `/1.0/search/venues?${c}&p=2`,
    `/1.0/search/venues?name=${encodeURIComponent(first)}&${c}`,
    `/1.0/search/venues?name=${encodeURIComponent(v.name)}&${c}`,
    `/1.0/search/venues?name=${encodeURIComponent(typo)}&${c}`,
    `/1.0/search/venues?cityId=${v.city}`,
    `/1.0/search/venues?name=${encodeURIComponent(first)}&cityId=${v.city}`,
    `/1.0/search/venues?cityName=${encodeURIComponent(v.cityName)}&${c}`,
    ...(v.admin1 === null || c.includes("stateCode") ? [] : [`/1.0/search/venues?stateCode=${v.admin1}&${c}`]),
    `/1.0/search/venues?kind=${v.kind}&${c}`,
    `/1.0/search/venues?bbox=${box}&${c}`,
    `/1.0/search/venues?lat=${v.lat}&long=${v.lng}&radius=50&${c}`,
    `/1.0/suggest/venues?name=${encodeURIComponent(first.slice(0, 3))}&${c}`,
    `/1.0/suggest/venues?name=${encodeURIComponent(typo)}&${c}&lat=${v.lat}&long=${v.lng}`,
    // A place at the end of the name: read among every place, in the main database (src/d1/main-only.ts).
    `/1.0/search/venues?name=${encodeURIComponent(`${first} ${v.cityName}`)}&${c}`,
  ];
}

/**
 * Searches whose filters or area may lie in several venue databases, drawn from `v`; and
 * suggestions, which a merge of every venue database they ask answers (src/suggest/merge.ts): a
 * name alone, with a focus, in a broad box, a kind, and a typo that nothing holds as typed (its
 * fallback's search merged too, where the var VENUE_NAME_SEARCH says "merged").
 */
export function broadRequests(v: VenueRow, at: number): string[] {
  const word = words(v.name)[0] ?? "a";
  const first = encodeURIComponent(word);
  const box = [v.lng - 2 * at, v.lat - 3, v.lng + 4, v.lat + 1].map((x) => x.toFixed(2)).join(",");
  const typo = encodeURIComponent(word.length >= 5 ? `${word.slice(0, 2)}${word.slice(3)}` : `${word}q`);
  return [
    `/1.0/suggest/venues?name=${encodeURIComponent(word.slice(0, 3))}`,
    `/1.0/suggest/venues?name=${first}&lat=${v.lat}&long=${v.lng}&limit=${5 + Math.round(15 * at)}`,
    `/1.0/suggest/venues?name=${encodeURIComponent(word.slice(0, 2))}&bbox=${box}&kind=${v.kind}`,
    `/1.0/suggest/venues?name=${typo}`,
    `/1.0/search/venues?name=${first}`,
    `/1.0/search/venues?name=${first}&matched=1`,
    `/1.0/search/venues?name=${typo}&matched=1`,
    `/1.0/search/venues?kind=${v.kind}`,
    `/1.0/search/venues?country=${v.country ?? ""}`,
    `/1.0/search/venues?cityName=${encodeURIComponent(v.cityName)}`,
    `/1.0/search/venues?bbox=${box}`,
    `/1.0/search/venues?name=${first}&lat=${v.lat}&long=${v.lng}&radius=${Math.round(100 + 400 * at)}`,
    // Names in an area over several venue databases (src/query/merged-area-names.ts): a typo, a deeper page.
    `/1.0/search/venues?name=${typo}&bbox=${box}`,
    `/1.0/search/venues?name=${first}&bbox=${box}&p=2`,
    ...(v.admin1 === null ? [] : [`/1.0/search/venues?stateCode=${v.admin1}`]),
    // Pages of the searches that merge, deep ones among them (src/query/merged-browse.ts), and of areas, which do not.
    `/1.0/search/venues?bbox=${box}&p=${2 + Math.round(10 * at)}`,
    `/1.0/search/venues?bbox=${box}&kind=${v.kind}`,
    `/1.0/search/venues?lat=${v.lat}&long=${v.lng}&radius=${Math.round(100 + 400 * at)}`,
    `/1.0/search/venues?lat=${v.lat}&long=${v.lng}&radius=${Math.round(100 + 400 * at)}&kind=${v.kind}`,
    `/1.0/search/venues?lat=${v.lat}&long=${v.lng}&radius=${Math.round(100 + 400 * at)}&p=${1 + Math.round(5 * at)}`,
    `/1.0/search/venues?p=${1 + Math.round(90 * at)}`,
    `/1.0/search/venues?kind=${v.kind}&p=${1 + Math.round(10 * at)}`,
    `/1.0/search/venues?country=${v.country ?? ""}&p=${1 + Math.round(20 * at)}`,
    `/1.0/search/venues?kind=${v.kind}&country=${v.country ?? ""}&p=2`,
    `/1.0/search/venues?kind=${v.kind}&cityName=${encodeURIComponent(v.cityName)}`,
    ...(v.admin1 === null
      ? []
      : [`/1.0/search/venues?stateCode=${v.admin1}&kind=${v.kind}&p=${1 + Math.round(3 * at)}`]),
  ];
}

/** Words of 5 letters or more that venues of `db` hold. */
export const venueWords = (db: Database.Database): string[] =>
  db.prepare("SELECT word FROM words WHERE venues > 0 AND length(word) >= 5").pluck().all() as string[];

/**
 * Searches within the regions of 25 venues of a venue database (`venues`) for a word that only
 * other venue databases' venues hold (`others`), typed with a typo, after a word of the venue's
 * name, and its start: the corrections of such a typo are counted over every venue.
 */
function foreignWordRequests(venues: readonly VenueRow[], others: readonly string[], manifest: ShardManifest) {
  return Array.from({ length: 25 }, (_, k) => {
    const v = venues[Math.floor((k / 25) * venues.length)];
    const word = others[(k * 7) % others.length];
    if (v === undefined || word === undefined) return [];
    const typo = word.slice(0, 2) + word.slice(3);
    const region = regionFilter(v, manifest);
    return [typo, `${words(v.name)[0] ?? "a"} ${typo}`, word.slice(0, 4)].map(
      (name) => `/1.0/search/venues?name=${encodeURIComponent(name)}&${region}`,
    );
  }).flat();
}

/** Per venue database of `main`'s plan, the searches of foreignWordRequests in its regions. */
export function foreignPaths(main: Database.Database, shards: readonly Database.Database[]): string[][] {
  const manifest = manifestOf(main);
  const every = venueWords(main);
  return shards.map((db) => {
    const own = new Set(venueWords(db));
    const venues = venuesOf(db).filter((v) => v.country !== null);
    return foreignWordRequests(
      venues,
      every.filter((w) => !own.has(w)),
      manifest,
    );
  });
}

/** Requests drawn from 45 venues of the main database spread over the order: within their region, broader, deeper, and lookups. */
export function drawnPaths(db: Database.Database): string[] {
  const manifest = manifestOf(db);
  const venues = venuesOf(db).filter((v) => v.country !== null);
  return Array.from({ length: 45 }, (_, i) => venues[Math.floor(((i + 0.5) / 45) * venues.length)]).flatMap((v, i) => {
    if (v === undefined) return [];
    const region = regionFilter(v, manifest);
    return [
      ...requestsNear(v, region),
      ...broadRequests(v, (i % 5) / 5 + 0.05),
      `/1.0/search/venues?${region}&p=${2 + (i % 7)}`,
      `/1.0/search/venues?name=${encodeURIComponent(v.name)}&matched=1&${region}`,
      `/1.0/search/venues?cityId=${v.city}&kind=${v.kind}&p=1`,
      `/1.0/venue/${v.id}`,
    ];
  });
}

/**
 * A place read at the end of a text is chosen among every place, not among the places of the
 * regions a venue database holds (docs/deploy.md#past-one-database): searches and suggestions of
 * a word of a venue's name and its city's name (whole, and its first three letters as typed), in
 * the venue's region, in a box around it and alone, for one venue of each city whose first three
 * letters another venue database's city shares.
 */
export function namesakePaths(main: Database.Database, shards: readonly Database.Database[]): string[] {
  const manifest = manifestOf(main);
  const holders = new Map<string, Set<number>>();
  shards.forEach((db, i) => {
    for (const name of db.prepare("SELECT substr(name_norm, 1, 3) FROM cities").pluck().all() as string[])
      holders.set(name, (holders.get(name) ?? new Set()).add(i));
  });
  return shards.flatMap((db) => {
    const seen = new Set<string>();
    const venues = venuesOf(db).filter((v) => v.country !== null && !seen.has(v.city) && seen.add(v.city));
    return venues
      .filter((v) => (holders.get(normalize(v.cityName).slice(0, 3))?.size ?? 0) > 1)
      .flatMap((v) => {
        const first = words(v.name)[0] ?? "a";
        const region = regionFilter(v, manifest);
        const typed = encodeURIComponent(`${first} ${v.cityName.slice(0, 3)}`);
        const whole = encodeURIComponent(`${first} ${v.cityName}`);
        const box = [v.lng - 0.5, v.lat - 0.5, v.lng + 0.5, v.lat + 0.5].map((x) => x.toFixed(3)).join(",");
        return [
          `/1.0/search/venues?name=${whole}&bbox=${box}`,
          `/1.0/suggest/venues?name=${typed}&${region}`,
          `/1.0/suggest/venues?name=${typed}`,
          `/1.0/search/venues?name=${whole}&${region}`,
          `/1.0/search/venues?name=${whole}&${region}&p=2`,
        ];
      });
  });
}

/**
 * Whether a search is outside an area (the venue databases it asks merge it: src/query/merged-browse.ts
 * without a name, merged-names.ts with one, where the var VENUE_NAME_SEARCH says "merged").
 */
export function mergesPath(s: { path: string }): boolean {
  return areaOf(searchRequest(s.path).params) === undefined;
}

/** The items `test` holds for, and the others. */
export const partition = <T>(list: T[], test: (t: T) => boolean): [T[], T[]] => [
  list.filter(test),
  list.filter((t) => !test(t)),
];

/** The venue databases the routing asks for a search, its places read from `main` as the worker would. */
export function askedShards(main: Database.Database, path: string, manifest: ShardManifest): number[] {
  const { params } = searchRequest(path);
  const statement = shardPlacesSql(params);
  if (statement === null) return shardsFor(manifest, null, areaOf(params));
  const { text, binds } = anonymous(numbered(statement));
  const places = (main.prepare(text).all(...binds) as Record<string, unknown>[]).map(filterPlace);
  return shardsFor(manifest, places, areaOf(params));
}

/**
 * Whether a request still reads the main database's venues (docs/deploy.md#past-one-database): a
 * venue name search or suggestion in an area over several venue databases whose covers hold more
 * than the candidates one database reads whole (src/query/merged-area-names.ts: counted here in the
 * venue databases `shards`); a search without a name is merged at any page (merged-area.ts).
 */
export function readsMainVenues(
  main: Database.Database,
  shards: readonly Database.Database[],
  path: string,
  manifest: ShardManifest,
): boolean {
  if (!/^\/1\.0\/(search|suggest)\/venues\?/.test(path)) return false;
  const { params } = searchRequest(path);
  const area = areaOf(params);
  if (area === undefined || askedShards(main, path, manifest).length <= 1) return false;
  if (params.name === undefined && path.startsWith("/1.0/search/")) return false;
  const inArea =
    params.name === undefined ? areaBrowseMerge(VENUES, params, area) : firstTrip(VENUES, params, "en")?.search.inArea;
  if (inArea === undefined) return false;
  const { text, binds } = anonymous(numbered(inArea.candidates(PLACED_CANDIDATES + 1)));
  const counted = shards.map((db) =>
    db
      .prepare(text)
      .pluck()
      .get(...binds),
  );
  return counted.reduce((a: number, n) => a + Number(n), 0) > PLACED_CANDIDATES;
}
