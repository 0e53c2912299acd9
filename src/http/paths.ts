/**
 * Where the worker answers (docs/api.md#paths): the API at /1.0 and again at /rest/1.0, so a client
 * built for https://api.setlist.fm/rest swaps only the host, and the search page at /. Every other
 * path is the page's files' (src/http/files.ts; test/node/page-files.test.ts: none lies at these).
 */
export const API_BASES = ["/1.0", "/rest/1.0"] as const;
export const PAGE_PATH = "/";

/** Whether the worker answers a path itself (the page, every path of the API), else the page's files do (src/http/files.ts). */
export const answersItself = (path: string): boolean =>
  path === PAGE_PATH || API_BASES.some((base) => path === base || path.startsWith(`${base}/`));
