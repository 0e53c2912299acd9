/**
 * A call to the process that keeps the stand-in for the remote database open
 * (scripts/tools/d1-stand-in-server.ts): what `d1 execute` and `d1 migrations apply` of the
 * stand-in send it (scripts/tools/d1-stand-in-execute.ts, d1-stand-in-migrate.ts), and the first
 * call's start of it; and the environment that makes an import's `--remote` the stand-in.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** One batch: the statements (a file's text or a --command), for the local D1 of that id. */
export interface StandInCall {
  databaseId: string;
  sql: string;
}

/** A statement's result from Miniflare's D1, as much as the stand-in reads of it. */
export interface D1Result {
  results?: unknown[];
  success: boolean;
  meta: { rows_read?: number; rows_written?: number; size_after?: number; duration?: number };
}

/**
 * The environment that makes `npm run db:import -- --remote` the local D1 in `dir`, through the
 * real wrangler (wrangler-d1-stand-in.sh), with the mirror of what it holds in `dir` too, not the
 * account's database's (scripts/import/publish/remote-mirror.ts).
 */
export const standInEnv = (dir: string): Record<string, string> => ({
  IMPORT_WRANGLER: join(import.meta.dirname, "wrangler-d1-stand-in.sh"),
  D1_STAND_IN_DIR: dir,
  IMPORT_MIRROR_DIR: join(dir, "mirror"),
});

/** The file in the stand-in's folder that holds the port of the process serving that folder. */
export const serverPortFile = (dir: string): string => join(dir, "stand-in-server.port");

/** How long a started server may take to say its port. */
const START_MS = 60_000;

/** Starts the server for the folder, in this Node with this process's loader (tsx), and waits for its port. */
async function startServer(dir: string): Promise<number> {
  rmSync(serverPortFile(dir), { force: true });
  const server = join(import.meta.dirname, "d1-stand-in-server.ts");
  spawn(process.execPath, [...process.execArgv, server, dir], { detached: true, stdio: "ignore" }).unref();
  for (const started = Date.now(); Date.now() - started < START_MS; await sleep(50)) {
    if (existsSync(serverPortFile(dir))) return Number(readFileSync(serverPortFile(dir), "utf8"));
  }
  throw new Error(`the stand-in's server for ${dir} did not start within ${START_MS / 1000} s`);
}

const post = (port: number, call: StandInCall): Promise<Response> =>
  fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: JSON.stringify(call) });

/** Runs the batch in the folder's server, started when none answers; throws D1's message when it fails. */
export async function sendToStandIn(dir: string, call: StandInCall): Promise<D1Result[]> {
  const file = serverPortFile(dir);
  let response: Response | undefined;
  if (existsSync(file)) {
    // A server that has stopped does not answer: another is started.
    response = await post(Number(readFileSync(file, "utf8")), call).catch(() => undefined);
  }
  response ??= await post(await startServer(dir), call);
  const body = (await response.json()) as D1Result[] | { error: { text: string } };
  if (!Array.isArray(body)) throw new Error(body.error.text);
  return body;
}
