/**
 * What a search request runs (npm run sql): the worker's own parser (src/params/search.ts) and
 * query modules (src/query/), with better-sqlite3 on a SQLite file in place of the D1 session —
 * round trip by round trip as the worker sends them, the typo fallback's second one included when
 * the name as typed matches nothing in this data — each statement with its bound values, its
 * EXPLAIN QUERY PLAN, its rows and time.
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { ApiError } from "../../src/http/errors.ts";
import { API_BASES } from "../../src/http/paths.ts";
import { requestUrl } from "../../src/http/url.ts";
import type { Language } from "../../src/data-contract/languages.ts";
import type { Resource } from "../../src/params/paging.ts";
import type { SearchParams } from "../../src/params/search-params.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { Page } from "../../src/query/records.ts";
import { withLongWords } from "../../src/match/long-words.ts";
import type { ResourceQueries, Runner } from "../../src/query/resource.ts";
import { readsMainOnly } from "../../src/d1/main-only.ts";
import { runSearch } from "../../src/query/search.ts";
import { firstTrip } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";
import { anonymous, type Sql } from "../../src/sql/sql.ts";
import { parseSuggestParams, type SuggestParams } from "../../src/suggest/params.ts";
import { runSuggest } from "../../src/suggest/suggest.ts";
import { storedImport } from "../import/target.ts";

/** A request npm run sql cannot explain; the message is meant for the user as is. */
export class SqlToolError extends Error {
  override name = "SqlToolError";
}

export interface SearchRequest {
  resource: Resource;
  /** The path as given, without the origin. */
  path: string;
  params: SearchParams;
  /** Suggestions (/1.0/suggest/…): their parameters, `params` their search's. */
  suggest?: SuggestParams;
}

const SEARCH_PATHS = "/1.0/search/venues?…, /1.0/search/cities?… or /1.0/suggest/… (also under /rest/1.0)";

/** A search path (`/1.0/search/venues?name=club`, under /rest too, or a whole URL), parsed as the worker parses it. */
export function searchRequest(target: string): SearchRequest {
  if (!/^(https?:\/\/[^/]+)?\//.test(target)) throw new SqlToolError(`give a search path: ${SEARCH_PATHS}`);
  let url;
  try {
    url = requestUrl(new Request(target.startsWith("/") ? `http://localhost${target}` : target));
  } catch {
    throw new SqlToolError(`${target} is not a URL path: give ${SEARCH_PATHS}`);
  }
  const path = url.path.length > 1 ? url.path.replace(/\/$/, "") : url.path; // one trailing slash, as the worker
  const endpoint = /\/(search|suggest)\/(venues|cities)$/.exec(path);
  const resource = (["venues", "cities"] as const).find((r) =>
    API_BASES.some((b) => path === `${b}/${endpoint?.[1] ?? ""}/${r}`),
  );
  if (resource === undefined) throw new SqlToolError(`${url.path} is not a venue or city search: give ${SEARCH_PATHS}`);
  const shown = `${url.path}${url.query === "" ? "" : `?${url.query}`}`;
  try {
    if (endpoint?.[1] === "suggest") {
      const suggest = parseSuggestParams(resource, url.query);
      return { resource, path: shown, params: suggest.search, suggest };
    }
    return { resource, path: shown, params: parseSearchParams(resource, url.query) };
  } catch (error) {
    // The worker's own 400, word for word.
    if (error instanceof ApiError) throw new SqlToolError(error.message);
    throw error;
  }
}

/** The served SQLite file, read-only, and its data version; an error saying what to run when it holds no data. */
export function openServed(path: string): { db: Database.Database; dataVersion: string } {
  const run = "run `npm start` or `npm run db:import` first";
  if (!existsSync(path)) throw new SqlToolError(`no database at ${path} yet: ${run}`);
  const stored = storedImport(path);
  if (stored === null) throw new SqlToolError(`${path} holds no data yet: ${run}`);
  return { db: new Database(path, { readonly: true, fileMustExist: true }), dataVersion: stored.dataVersion };
}

/** One statement as it ran: the worker's text and binds, its plan, how many rows it gave, in how long. */
export interface RanStatement {
  statement: Sql;
  /** What the statement is in its trip (src/query/trip.ts), where the trip names it. */
  name?: string;
  plan: { id: number; parent: number; detail: string }[];
  rows: number;
  ms: number;
}

export interface Explained {
  request: SearchRequest;
  language: Language;
  trips: { what: string; statements: RanStatement[] }[];
  /** Whether the first round trip reads what the typo fallback needs (a second one may follow). */
  forgiving: boolean;
  page: Page<unknown>;
}

function ranStatement(db: Database.Database, statement: Sql): RanStatement & { all: Record<string, unknown>[] } {
  // better-sqlite3 binds by position; the worker's numbered `+?N` become `+?` in their order.
  const { text, binds } = anonymous(statement);
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...binds) as RanStatement["plan"];
  const started = performance.now();
  const all = db.prepare(text).all(...binds) as Record<string, unknown>[];
  return { statement, plan, rows: all.length, ms: performance.now() - started, all };
}

/**
 * The worker's round trips run on a SQLite file instead of a D1 session, each reported to
 * `onTrip` with its statements as they ran (npm run sql; the place reading of npm run venues).
 * With `main`, `db` is a venue database, and the statements that the worker runs in the main
 * database (src/d1/main-only.ts) run on `main`.
 */
export function localRunner(
  db: Database.Database,
  onTrip: (what: string, ran: RanStatement[]) => void = () => {},
  main?: Database.Database,
): Runner {
  return {
    run: (what, list, names = []) => {
      const ran = list.map((s, i) => ({
        ...ranStatement(main !== undefined && readsMainOnly(names[i]) ? main : db, withLongWords(s)),
        name: names[i],
      }));
      onTrip(
        what,
        ran.map(({ all: _all, ...r }) => r),
      );
      return Promise.resolve(ran.map((r) => ({ rows: r.all })));
    },
  };
}

/** Runs a search's statements on `db` as the worker runs them on D1, recording each round trip. */
export async function explainSearch(
  db: Database.Database,
  request: SearchRequest,
  language: Language = "en",
  main?: Database.Database,
): Promise<Explained> {
  const q = (request.resource === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
  const trips: Explained["trips"] = [];
  const runner = localRunner(db, (what, ran) => trips.push({ what, statements: ran }), main);
  if (request.suggest !== undefined) {
    return { request, language, trips, forgiving: false, page: await runSuggest(q, runner, request.suggest, language) };
  }
  const page = await runSearch(q, runner, request.params, language);
  const forgiving = firstTrip(q, request.params, language)?.fuzzy ?? false;
  return { request, language, trips, forgiving, page };
}
