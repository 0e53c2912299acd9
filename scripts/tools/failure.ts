/**
 * A command's failure as a person reads it: one line, no stack trace. The errors made for people
 * (ImportError, FetchError, a bad option) are their message; a full disk says so; anything else is
 * its kind and message, and says how to see where it happened: `--verbose`, or DEBUG in the
 * environment, prints the stack trace after the line.
 */

/** Errors whose message is written for the user as is. */
const FOR_PEOPLE = new Set(["ImportError", "FetchError"]);

const codeOf = (error: unknown): string =>
  error !== null && typeof error === "object" && "code" in error ? String(error.code) : "";

/** Whether the stack trace is wanted too: `--verbose` among the arguments, or DEBUG set. */
const wantsStack = (): boolean =>
  process.argv.includes("--verbose") || (process.env.DEBUG !== undefined && process.env.DEBUG !== "");

/** The failure's text (one line, but for a list of bad rows, which is one line per row). */
export function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (codeOf(error) === "ENOSPC") return "the disk is full: free some space and run the command again";
  if (FOR_PEOPLE.has(error.name) || codeOf(error).startsWith("ERR_PARSE_ARGS")) return error.message;
  const first = error.message.split("\n", 1)[0] ?? "";
  return `${error.name}: ${first}${wantsStack() ? "" : " (--verbose, or DEBUG=1, shows where)"}`;
}

/** Prints the failure's line on stderr, and the stack trace when it is wanted. */
export function reportFailure(line: string, error: unknown): void {
  console.error(line);
  if (wantsStack() && error instanceof Error && error.stack !== undefined) console.error(error.stack);
}
