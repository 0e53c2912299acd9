/**
 * The remote databases of a plan (docs/deploy.md#past-one-database), checked before anything is
 * sent: each venue database declared in wrangler.toml, and on Workers Free within its databases
 * an account and its D1 calls a request. Checked before the main database's import where the
 * number is given (import.ts), after its plan where a size chooses it (meta.ts).
 */
import { MAIN_HOLDS_NO_VENUE } from "../../../src/data-contract/shards.ts";
import { ImportError } from "../problems.ts";
import { FREE_DATABASES, FREE_QUERIES_A_REQUEST } from "../publish/remote-plan.ts";
import type { ImportOptions } from "../options.ts";
import type { BoundDatabase } from "../wrangler.ts";

/**
 * The most D1 calls one request makes where the main database holds no venue: a suggestion with a
 * typo merged from every venue database, per venue database and besides them (measured:
 * docs/deploy.md#past-one-database).
 */
const MERGED_CALLS = { each: 8, beside: 4 };

/** On Workers Free, a main database without venues: its merged requests within the D1 calls a request may make. */
function checkFreeCalls(options: ImportOptions, venueDatabases: number): void {
  if (options.plan !== "free" || options.mainVenues !== MAIN_HOLDS_NO_VENUE) return;
  const calls = MERGED_CALLS.beside + MERGED_CALLS.each * venueDatabases;
  const most = Math.floor((FREE_QUERIES_A_REQUEST - MERGED_CALLS.beside) / MERGED_CALLS.each);
  if (calls > FREE_QUERIES_A_REQUEST)
    throw new ImportError(
      `--main-venues none with ${venueDatabases} venue databases: a search merged from all of them makes up to ${calls} ` +
        `D1 calls, and Workers Free allows ${FREE_QUERIES_A_REQUEST} a request; at most ${most} venue databases there, or --main-venues every`,
    );
}

/**
 * A remote import in venue databases: each one declared in wrangler.toml (a dry run assumes the
 * others new), and, on Workers Free, within its 10 databases an account and its D1 calls a request.
 */
export function checkRemote(options: ImportOptions, databases: readonly BoundDatabase[]): void {
  checkFreeCalls(options, databases.length);
  const undeclared = databases.filter((d) => !d.declared);
  if (options.dryRun !== true && undeclared.length > 0)
    throw new ImportError(
      `wrangler.toml declares no ${undeclared.map((d) => d.binding).join(", ")}: create each with ` +
        `\`npx wrangler d1 create ${undeclared[0]?.name ?? ""}\` and add it as a [[d1_databases]] entry with that binding ` +
        "(docs/deploy.md#past-one-database)",
    );
  if (options.plan === "free" && databases.length + 1 > FREE_DATABASES)
    throw new ImportError(
      `${databases.length} venue databases and the main one are ${databases.length + 1} databases, and Workers Free allows ${FREE_DATABASES} an account`,
    );
}
