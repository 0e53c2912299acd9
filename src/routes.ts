/**
 * Every route of the worker, in one table (docs/api.md#paths). The API is served at /1.0 and again
 * at /rest/1.0, so a client built for https://api.setlist.fm/rest swaps only the host. The page's
 * script and styles are static assets (public/, built from src/page/), served before the worker.
 */
import { countries } from "./endpoints/countries.ts";
import { openApi } from "./endpoints/openapi.ts";
import { page } from "./endpoints/page.ts";
import { city, venue } from "./endpoints/lookup.ts";
import { search } from "./endpoints/search.ts";
import type { IRequest } from "itty-router";
import type { Env } from "./env.ts";

type Handler = (request: IRequest, env: Env, ctx: ExecutionContext) => Promise<Response> | Response;

export interface Route {
  path: string;
  handler: Handler;
  /** A document a browser opens (it cannot send an API key): served without one. */
  open?: true;
}

const API_BASES = ["/1.0", "/rest/1.0"] as const;

export const ROUTES: readonly Route[] = [
  ...API_BASES.flatMap((base): Route[] => [
    { path: `${base}/search/venues`, handler: (request, env, ctx) => search("venues", request, env, ctx) },
    { path: `${base}/search/cities`, handler: (request, env, ctx) => search("cities", request, env, ctx) },
    { path: `${base}/search/countries`, handler: countries },
    { path: `${base}/venue/:id`, handler: (request, env, ctx) => venue(request.params.id ?? "", request, env, ctx) },
    { path: `${base}/city/:id`, handler: (request, env, ctx) => city(request.params.id ?? "", request, env, ctx) },
    { path: `${base}/openapi.json`, handler: openApi, open: true },
  ]),
  { path: "/", handler: page, open: true },
];

const OPEN_PATHS = new Set(ROUTES.filter((r) => r.open).map((r) => r.path));

/** Whether a request path is served without an API key. */
export const isOpenPath = (path: string): boolean => OPEN_PATHS.has(path);
