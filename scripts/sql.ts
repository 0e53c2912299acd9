/**
 * npm run sql -- '/1.0/search/venues?name=club&bbox=-0.4,51.35,0.15,51.65' [--language de]
 * [--database FILE]: the statements that search runs, with their bound values and EXPLAIN QUERY
 * PLAN, on the local database that `npm start` serves (scripts/sql/explain.ts).
 */
import "./node-version.ts";
import { parseArgs } from "node:util";
import { LANGUAGES, type Language } from "../src/data-contract/languages.ts";
import { ImportError } from "./import/problems.ts";
import { d1Database, localD1File } from "./import/wrangler.ts";
import { explainSearch, openServed, searchRequest, SqlToolError } from "./sql/explain.ts";
import { explainedText } from "./sql/print.ts";

const USAGE = "usage: npm run sql -- '/1.0/search/venues?name=club' [--language de] [--database FILE]";

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { language: { type: "string" }, database: { type: "string" } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new SqlToolError(USAGE);
  const language = values.language ?? "en";
  if (!(LANGUAGES as readonly string[]).includes(language)) {
    throw new SqlToolError(`--language must be one of ${LANGUAGES.join(", ")}`);
  }
  const request = searchRequest(positionals[0] ?? "");
  const path = values.database ?? localD1File(d1Database().id);
  const { db, dataVersion } = openServed(path);
  try {
    const explained = await explainSearch(db, request, language as Language);
    console.log(explainedText(explained, `${path} (data version ${dataVersion})`));
  } finally {
    db.close();
  }
}

main().catch((error: unknown) => {
  const known =
    error instanceof SqlToolError ||
    error instanceof ImportError ||
    (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"));
  console.error(known ? `npm run sql: ${(error as Error).message}` : error);
  process.exit(1);
});
