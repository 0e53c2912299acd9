/**
 * Where the worker answers (docs/api.md#paths): the API at /1.0 and again at /rest/1.0, so a client
 * built for https://api.setlist.fm/rest swaps only the host, and the search page at /. wrangler.toml's
 * `run_worker_first` names the same paths (test/node/worker-first.test.ts keeps them in step).
 */
export const API_BASES = ["/1.0", "/rest/1.0"] as const;
export const PAGE_PATH = "/";
