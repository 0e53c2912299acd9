/**
 * The process that keeps the stand-in for the remote database open between its calls
 * (scripts/tools/d1-stand-in-execute.ts starts it): wrangler's SQL splitter and a Miniflare D1 for
 * each database of one persist folder, loaded once instead of at every `d1 execute`, which spent
 * most of its seconds loading wrangler and Miniflare and starting workerd. Each statement list is
 * still split by wrangler's own splitter and applied as one batch on Miniflare's D1, whole or not at
 * all. The local D1's files are SQLite in WAL mode, so wrangler's own commands (migrations) and
 * the tests' readers meet this process's writes as they meet each other's.
 *
 * Usage: d1-stand-in-server.ts DIR — listens on 127.0.0.1, writes its port to DIR's port file
 * (serverPortFile), answers POSTs one at a time, and stops itself once DIR is gone or no call came
 * for IDLE_MS.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { serverPortFile, type StandInCall, type D1Result } from "./d1-stand-in-call.ts";

interface D1 {
  prepare(sql: string): unknown;
  batch(statements: unknown[]): Promise<D1Result[]>;
}
interface MiniflareModule {
  Miniflare: new (options: unknown) => { getD1Database(name: string): Promise<D1>; dispose(): Promise<void> };
  convertV4MiniflareOptions(options: unknown): unknown;
}

// The Miniflare and the splitter of the wrangler that the import runs, whichever versions they are
// (wrangler keeps a Miniflare of its own, newer than the one vitest's pool brings).
const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler"));
const { Miniflare, convertV4MiniflareOptions } = fromWrangler("miniflare") as MiniflareModule;
const { unstable_splitSqlQuery: split } = fromWrangler("wrangler") as { unstable_splitSqlQuery(sql: string): string[] };

/** How long the process waits for another call before it stops. */
const IDLE_MS = 20_000;

const dir = process.argv[2] ?? "";
if (!dir) throw new Error("usage: d1-stand-in-server.ts DIR");
// As wrangler does for a new database: the folder is made by its first call.
mkdirSync(dir, { recursive: true });

/** One Miniflare for each database id, opened at its first call. */
const opened = new Map<string, { mf: InstanceType<MiniflareModule["Miniflare"]>; db: D1 }>();

async function databaseOf(id: string): Promise<D1> {
  const open = opened.get(id);
  if (open) return open.db;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      resourcePersistencePath: join(dir, "v3"),
      d1Databases: { DATABASE: id },
    }),
  );
  const db = await mf.getD1Database("DATABASE");
  opened.set(id, { mf, db });
  return db;
}

async function execute(call: StandInCall): Promise<D1Result[]> {
  const db = await databaseOf(call.databaseId);
  return await db.batch(split(call.sql).map((q) => db.prepare(q)));
}

async function bodyOf(request: IncomingMessage): Promise<StandInCall> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as StandInCall;
}

/** Set once the process stops: a call that comes then finds no server, and its caller starts another. */
let stopping = false;

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  // The calls taken before are answered first: a database disposed under one answers "poisoned stub".
  await queue;
  for (const { mf } of opened.values()) await mf.dispose();
  process.exit(0);
}

let idle: NodeJS.Timeout | undefined;
const stopWhenIdle = (): void => {
  clearTimeout(idle);
  idle = setTimeout(() => void stop(), IDLE_MS);
};
// A test removes its folder when it ends: the process stops then, not IDLE_MS later.
setInterval(() => existsSync(dir) || void stop(), 1_000).unref();

// One call at a time, in the order they came, as the remote database applies one file after another.
let queue: Promise<unknown> = Promise.resolve();
const server = createServer((request, response) => {
  if (stopping) return void request.socket.destroy();
  clearTimeout(idle);
  queue = queue.then(async () => {
    try {
      const results = await execute(await bodyOf(request));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(results));
    } catch (error) {
      // D1's own message is the error's cause, as wrangler says it.
      const cause = (error as { cause?: unknown }).cause ?? error;
      const text = cause instanceof Error ? cause.message : String(cause);
      response.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ error: { text } }));
    }
    stopWhenIdle();
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const file = serverPortFile(dir);
  writeFileSync(`${file}.${process.pid}`, String(port));
  renameSync(`${file}.${process.pid}`, file);
  stopWhenIdle();
});
