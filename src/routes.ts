/**
 * Every route of the worker, in one table, on the paths of http/paths.ts (docs/api.md#paths). The
 * page's script and styles are static assets (public/, built from src/page/), served without it.
 */
import { countries } from "./endpoints/countries.ts";
import { openApi } from "./endpoints/openapi.ts";
import { page } from "./endpoints/page.ts";
import { city, venue } from "./endpoints/lookup.ts";
import { search } from "./endpoints/search.ts";
import { suggest } from "./endpoints/suggest.ts";
import { API_BASES, PAGE_PATH } from "./http/paths.ts";
import type { IRequest } from "itty-router";
import type { Env } from "./env.ts";

type Handler = (request: IRequest, env: Env, ctx: ExecutionContext) => Promise<Response> | Response;

export interface Route {
  path: string;
  handler: Handler;
  /** A document a browser opens (it cannot send an API key): served without one. */
  open?: true;
}

export const ROUTES: readonly Route[] = [
  ...API_BASES.flatMap((base): Route[] => [
    { path: `${base}/search/venues`, handler: (request, env, ctx) => search("venues", request, env, ctx) },
    { path: `${base}/search/cities`, handler: (request, env, ctx) => search("cities", request, env, ctx) },
    { path: `${base}/search/countries`, handler: countries },
    { path: `${base}/suggest/venues`, handler: (request, env, ctx) => suggest("venues", request, env, ctx) },
    { path: `${base}/suggest/cities`, handler: (request, env, ctx) => suggest("cities", request, env, ctx) },
    { path: `${base}/venue/:id`, handler: (request, env, ctx) => venue(request.params.id ?? "", request, env, ctx) },
    { path: `${base}/city/:id`, handler: (request, env, ctx) => city(request.params.id ?? "", request, env, ctx) },
    { path: `${base}/openapi.json`, handler: openApi, open: true },
  ]),
  { path: PAGE_PATH, handler: page, open: true },
];

const OPEN_PATHS = new Set(ROUTES.filter((r) => r.open).map((r) => r.path));

/** Whether a request path is served without an API key. */
export const isOpenPath = (path: string): boolean => OPEN_PATHS.has(path);
