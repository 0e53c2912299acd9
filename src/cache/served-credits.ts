/**
 * The credits of the data being served (src/data-contract/credits.ts), for the OpenAPI document and the
 * search page: meta `venue_sources`, read in one round trip with the data version and kept in
 * this isolate's memory for that version (src/cache/data-version.ts), so a document costs no D1
 * round trip while the version is remembered, and a re-import is credited within seconds.
 */
import type { Env } from "../env.ts";
import { ALL_VENUE_SOURCES, creditsFor, type Credits } from "../data-contract/credits.ts";
import { Session } from "../d1/session.ts";
import { rememberedVersion, rememberVersion } from "./data-version.ts";

const VENUE_SOURCES = { text: "SELECT value FROM meta WHERE key = 'venue_sources'", binds: [] };

let memo: { version: string; credits: Credits } | null = null;

export async function servedCredits(env: Env): Promise<Credits> {
  if (memo !== null && memo.version === rememberedVersion()) return memo.credits;
  let value: unknown;
  let version: string;
  try {
    const session = new Session(env.DB);
    [value] = (await session.run("reading the venue sources", [VENUE_SOURCES])).map((r) => r.rows[0]?.value);
    version = session.version ?? "";
  } catch (error) {
    // The documents are served without the database all the same: crediting a source too many
    // is better than one too few. Not remembered: the next request asks again.
    console.error("the venue sources cannot be read; crediting every source", error);
    return creditsFor(ALL_VENUE_SOURCES);
  }
  rememberVersion(version);
  memo = { version, credits: creditsFor(typeof value === "string" ? value : "") };
  return memo.credits;
}
