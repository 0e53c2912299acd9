/**
 * The page's files (wrangler.files.toml): a path the worker does not answer — not the API's, not
 * the page itself — is asked of the worker of static assets bound as FILES, so that the API's
 * requests pass no assets router first (docs/architecture.md#the-pages-files). What that worker
 * does not hold is answered by the router: the contract's 404.
 */
import type { Env } from "../env.ts";
import { answersItself } from "./paths.ts";
import { requestUrl } from "./url.ts";

/** The file at the request's path, or null where the router answers. */
export async function pageFile(request: Request, env: Env): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const { path } = requestUrl(request);
  if (answersItself(path)) return null;
  const file = await env.FILES.fetch(request);
  return file.status === 404 ? null : file;
}
