/**
 * The long words an isolate has read (src/match/long-word-book.ts), through the worker: a long
 * word's search and suggestions answer the same the first time (its words read in SQL, and once
 * more for the isolate) and after (bound as its words, fewer rows read); and when an import has
 * replaced the data between two requests, the answer that bound the old words starts again.
 */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetDataVersion } from "../../src/cache/data-version.ts";
import { callWith } from "./helpers.ts";

const setVersion = (value: string) =>
  env.DB.prepare("UPDATE meta SET value = ? WHERE key = 'data_version'").bind(value).run();

/** A miss (the edge cache off). */
const miss = async (path: string) => {
  const res = await callWith({ EDGE_CACHE: "off" }, path, { headers: { Accept: "application/json" } });
  const timing = res.headers.get("Server-Timing") ?? "";
  return { status: res.status, body: await res.text(), rowsRead: Number(/rows_read=(\d+)/.exec(timing)?.[1]) };
};

let original = "";
/** The fixture's most common word of 9 letters or more in venues' and in cities' names, by its first 8: more than the prefix index's 6. */
const starts = { venues: "", cities: "" };

beforeAll(async () => {
  original = String(await env.DB.prepare("SELECT value FROM meta WHERE key = 'data_version'").first("value"));
  for (const resource of ["venues", "cities"] as const) {
    const word = await env.DB.prepare(
      `SELECT word FROM words WHERE length(word) >= 9 ORDER BY ${resource} DESC, word`,
    ).first<string>("word");
    starts[resource] = String(word).slice(0, 8);
  }
});

afterAll(async () => {
  await setVersion(original);
  forgetDataVersion();
});

describe("long words the isolate has read", () => {
  it.each(["search/venues?name=", "search/cities?name=", "suggest/venues?name=", "search/venues?country=US&name="])(
    "%s…: the same answer read and bound, fewer rows once bound; the words of a replaced import not used",
    async (endpoint) => {
      const path = `/1.0/${endpoint}${endpoint.includes("venues") ? starts.venues : starts.cities}`;
      // A data version of its own: the isolate has read no long word for it.
      await setVersion(`long-words ${endpoint}`);
      forgetDataVersion();
      const first = await miss(path);
      expect(first.status, path).toBe(200);
      const again = await miss(path);
      expect(again.body, path).toBe(first.body);
      expect(again.rowsRead, path).toBeLessThan(first.rowsRead);

      // Another import swaps in while the isolate still remembers the version before it.
      await setVersion(`long-words ${endpoint} again`);
      const after = await miss(path);
      expect(after.body, path).toBe(first.body);
      expect(after.rowsRead, path).toBeGreaterThan(again.rowsRead);
    },
  );
});
