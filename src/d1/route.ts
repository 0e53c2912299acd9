/**
 * The request path's routing to the venue databases (docs/deploy.md#past-one-database): which
 * database runs a venue search's round trips, by the rule of shards.ts.
 */
import {
  boxesOf,
  MAIN_HOLDS_NO_VENUE,
  shardBinding,
  type ShardBox,
  type ShardManifest,
} from "../data-contract/shards.ts";
import type { Env } from "../env.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import type { Runner } from "../query/resource.ts";
import { shardPlacesSql, shardPlanSql } from "../query/shard-places.ts";
import type { Sql } from "../sql/sql.ts";
import { splitByDatabase } from "./main-only.ts";
import { ApiError } from "../http/errors.ts";
import { NotCurrent, RETRY_AFTER_SECONDS, Session, VersionChanged, type Rows } from "./session.ts";
import { filterPlace, shardsFor, type FilterPlace } from "./shards.ts";

/** The binding of venue database `shard`, when the deployment binds it (wrangler.shards.toml). */
function boundShard(env: Env, shard: number): D1Database | undefined {
  const value = (env as unknown as Record<string, unknown>)[shardBinding(shard)];
  return typeof value === "object" && value !== null && "withSession" in value ? (value as D1Database) : undefined;
}

/** The venue databases' manifest, whether the main database holds every venue (MAIN_VENUES_KEY), and the main database's data version it was read at. */
interface Plan {
  manifest: ShardManifest;
  mainHoldsVenues: boolean;
  version: string;
}

/**
 * What the routing read from the main database at one data version: the plan, and the places of
 * the filters asked so far (by their statement; at most PLACES_KEPT). Kept by the isolate, so a
 * search whose main data version is known (the pipeline remembers it for a few seconds:
 * src/cache/data-version.ts) and whose filters were routed before asks the main database nothing.
 */
interface RoutingRead {
  version: string;
  plan: Plan | null;
  places: Map<string, FilterPlace[]>;
}

const PLACES_KEPT = 4096;
let kept: RoutingRead | null = null;

/** The kept plan and places of `key`, when kept at the version `known`. */
function keptRead(known: string | null, key: string | null) {
  if (kept === null || kept.version !== known) return null;
  const places = key === null ? null : kept.places.get(key);
  return places === undefined ? null : { plan: kept.plan, places };
}

/** The plan and the places of `placesSql` at the main database's version, read when not kept. */
async function routingRead(main: Session, known: string | null, placesSql: Sql | null) {
  const key = placesSql === null ? null : JSON.stringify(placesSql);
  const found = keptRead(known, key);
  if (found !== null) return found;
  // The plan (tens of KB) is read only where the isolate does not keep it at the version known.
  const planKept = kept !== null && known !== null && kept.version === known;
  const rows = await main.run("routing to a venue database", [
    ...(planKept ? [] : [shardPlanSql()]),
    ...(placesSql === null ? [] : [placesSql]),
  ]);
  const [planRows, placeRows] = planKept ? [undefined, rows[0]] : rows;
  const version = main.version ?? "";
  // Another import since: its plan read too.
  if (planRows === undefined && kept?.version !== version) return routingRead(main, null, placesSql);
  const keeping = keptAt(version, planRows);
  const places = placeRows === undefined ? null : placeRows.rows.map(filterPlace);
  if (key !== null && places !== null) keeping.places.set(key, places);
  return { plan: keeping.plan, places };
}

/** What the isolate keeps at `version`: kept anew with the plan read, or where it holds too many places. */
function keptAt(version: string, planRows: Rows<Record<string, unknown>> | undefined): RoutingRead {
  if (kept === null || kept.version !== version || kept.places.size >= PLACES_KEPT) {
    kept = {
      version,
      plan: planRows === undefined ? (kept?.plan ?? null) : planOf(planRows, version),
      places: new Map(),
    };
  }
  return kept;
}

/** The plan in the row of shardPlanSql(); null where the main database holds none. */
function planOf(rows: Rows<Record<string, unknown>>, version: string): Plan | null {
  const row = rows.rows[0];
  if (typeof row?.plan !== "string") return null;
  const manifest = JSON.parse(row.plan) as ShardManifest;
  return { manifest, mainHoldsVenues: row.venues !== MAIN_HOLDS_NO_VENUE, version };
}

/**
 * Runs a search's round trips in the one venue database it asks, while that holds the import the
 * main database names for it; else, from its first round trip on, in the main database (which
 * still holds every venue: docs/deploy.md#past-one-database). A trip's statements that read what
 * the main database alone holds (main-only.ts) run there, beside the venue database's.
 */
class InShard implements Runner {
  /** Whether the main database answers in this one's stead (it holds another import). */
  inMain = false;

  constructor(
    private readonly shard: Session,
    private readonly main: Session,
    readonly within: readonly ShardBox[],
    /** The plan that named this database's import: whether the main database holds every venue, so can answer in its stead (else: beingImported). */
    private readonly plan: Plan,
  ) {}

  async run(what: string, statements: readonly Sql[], names?: readonly string[]) {
    if (this.inMain) return this.main.run(what, statements);
    const trip = splitByDatabase(statements, names);
    if (trip.main.length === 0) return (await this.inShard(what, statements)) ?? this.main.run(what, statements);
    const [venueRows, mainRows] = await Promise.all([
      this.inShard(what, trip.venues),
      this.main.run(`${what} (the vocabulary)`, trip.main),
    ]);
    return trip.joined(venueRows ?? (await this.main.run(what, trip.venues)), mainRows);
  }

  /** The rows of the venue database, counted as the main session's; null when it holds another import. */
  private async inShard(what: string, statements: readonly Sql[]) {
    const rowsBefore = this.shard.rowsRead;
    try {
      const rows = await this.shard.run(what, statements);
      this.main.rowsRead += this.shard.rowsRead - rowsBefore;
      this.main.trips++;
      for (const label of this.shard.answeredBy) this.main.answeredBy.add(label);
      return rows;
    } catch (error) {
      // Only the first round trip meets it (a later change is VersionChanged: session.ts).
      if (!(error instanceof NotCurrent)) throw error;
      if (this.plan.mainHoldsVenues) {
        this.inMain = true;
        return null;
      }
      // A plan the isolate kept, which the main database has not confirmed: the databases may have swapped in
      // a new import together (scripts/import/shards/swap-together.ts); the answer starts again, the plan read anew.
      if (this.main.version !== this.plan.version) throw new VersionChanged();
      throw beingImported();
    }
  }
}

/** What runs round trips in venue database `n` of the manifest; null where the deployment does not bind it. */
function inShard(env: Env, main: Session, plan: Plan, n: number): InShard | null {
  const shard = plan.manifest.find((s) => s.shard === n);
  const db = shard === undefined ? undefined : boundShard(env, n);
  if (shard === undefined || db === undefined) return null;
  const session = new Session(db, String(n), shard.version);
  return new InShard(session, main, shard.regions.flatMap(boxesOf), plan);
}

/** A venue database asked holds another import than the main database names, which cannot answer in its stead. */
const beingImported = () =>
  new ApiError(503, "a venue database this search asks is being imported; try again in a moment", {
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });

/** The venue databases a venue request asks, each as what runs its round trips. */
export interface VenueRoute {
  /** What runs the request's round trips: the one venue database it asks alone, else the main database. */
  one: Runner;
  /**
   * Every venue database it asks, when it asks more than one and the main database holds no venue:
   * their answers merged (src/query/merged-*.ts, src/suggest/merge.ts); else `[one]`.
   */
  each: readonly Runner[];
  /**
   * Every venue database the deployment binds, for what is read over every venue (a place read in
   * a name in an area: src/query/routed-names.ts); none where the main database answers alone.
   */
  every(): readonly Runner[];
  /** Whether every venue database asked so far held the import the main database names for it. */
  current(): boolean;
  /** Whether the main database holds every venue (MAIN_VENUES_KEY): what it reads of them it reads there. */
  mainHoldsVenues: boolean;
}

/** The main database alone. */
const alone = (main: Session): VenueRoute => ({
  one: main,
  each: [main],
  every: () => [],
  current: () => true,
  mainHoldsVenues: true,
});

/**
 * What runs a venue request (docs/deploy.md#past-one-database): the venue database its filters and
 * area ask alone; where they ask several, the main database while it holds every venue, else every
 * one of them (a merge); the main database too, while it holds every venue, where the request
 * reads what it alone holds (`readsPlace`: a suggestion whose text may end with a place, chosen
 * among every place, in one statement with the venues'). `known`: the main database's data
 * version, when the pipeline knows it. The plan and the places the filters name come from the main
 * database (routingRead, kept by the isolate); nothing is read where the deployment binds no
 * venue database.
 */
export async function venueRoute(
  env: Env,
  main: Session,
  known: string | null,
  p: SearchParams,
  { readsPlace = false }: { readsPlace?: boolean } = {},
): Promise<VenueRoute> {
  if (boundShard(env, 1) === undefined) return alone(main);
  const area = areaOf(p);
  const placesSql = shardPlacesSql(p);
  // What the main database answers while it holds every venue needs the plan, not the places.
  const planned = await routingRead(main, main.version ?? known, readsPlace ? null : placesSql);
  if (planned.plan === null || (readsPlace && planned.plan.mainHoldsVenues)) return alone(main);
  const { plan, places } = readsPlace ? await routingRead(main, main.version ?? known, placesSql) : planned;
  if (plan === null) return alone(main);
  const { manifest } = plan;
  // Each venue database's runner once, whether asked for the route or for every venue (`every`).
  const made = new Map<number, InShard | null>();
  const shard = (n: number) => {
    if (!made.has(n)) made.set(n, inShard(env, main, plan, n));
    return made.get(n) ?? null;
  };
  const every = () => manifest.map((s) => shard(s.shard));
  return routeOf(main, shardsFor(manifest, places, area).map(shard), plan.mainHoldsVenues, every);
}

/**
 * Every venue database the deployment binds, for a request that does not know which one holds what
 * it asks (a venue by its id: src/endpoints/lookup.ts), each current one asked at once; the main
 * database while it holds every venue.
 */
export async function everyVenueDatabase(env: Env, main: Session, known: string | null): Promise<VenueRoute> {
  if (boundShard(env, 1) === undefined) return alone(main);
  const { plan } = await routingRead(main, main.version ?? known, null);
  if (plan === null || plan.mainHoldsVenues) return alone(main);
  const every = () => plan.manifest.map((s) => inShard(env, main, plan, s.shard));
  return routeOf(main, every(), false, every);
}

/**
 * The route of the venue databases asked: the one alone, or every one, merged, where the main
 * database holds no venue (`mainHoldsVenues` false); else the main database alone. `bound`: every
 * venue database the deployment binds, made when first asked for.
 */
function routeOf(
  main: Session,
  asked: readonly (InShard | null)[],
  mainHoldsVenues: boolean,
  bound: () => (InShard | null)[],
): VenueRoute {
  if (asked.length === 0 || asked.some((r) => r === null)) return alone(main);
  const runners = asked.filter((r) => r !== null);
  // None where the deployment does not bind every one of them.
  let made: InShard[] | null = null;
  const every = () => {
    const all = bound();
    return (made ??= all.some((r) => r === null) ? [] : all.filter((r) => r !== null));
  };
  const current = () => runners.every((r) => !r.inMain) && (made ?? []).every((r) => !r.inMain);
  const [first] = runners;
  if (runners.length === 1 && first !== undefined)
    return { one: first, each: [first], every, current, mainHoldsVenues };
  return mainHoldsVenues ? alone(main) : { one: main, each: runners, every, current, mainHoldsVenues };
}

/**
 * What runs a venue search's round trips in the main database's stead where it holds no venue and
 * the search asks several venue databases, for what their merge declines (src/query/merged-*.ts):
 * a refusal in the contract's error rather than an answer without venues — one of them holding
 * another import (503: try again), or a search that one database reads and the merge cannot make
 * (400: narrow it).
 */
export const declined = (route: VenueRoute): Runner => ({
  run() {
    if (!route.current()) throw beingImported();
    throw new ApiError(
      400,
      "this deployment answers a search over several venue databases by merging theirs, and cannot merge this one " +
        "as one database answers it (a name in an area whose cells hold more than 1,500 matches, or a total counted " +
        "past 2,500 records on the area's edge); narrow it (a smaller area, a country or a state)",
    );
  },
});
