/**
 * The project's place on disk and the one way scripts run other programs: the project root, its
 * installed binaries, a child process that is waited for (or stopped with its whole group), and
 * whether a process runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * What keeps wrangler off the network where nothing needs it (docs: "System environment
 * variables"): no usage metrics (wrangler.toml says so too), and no fetch of the `Request.cf` data
 * from workers.cloudflare.com on each `wrangler dev` start — the worker reads none of it, and
 * offline the fetch printed `getaddrinfo ENOTFOUND workers.cloudflare.com` twice. And no trace of
 * every request kept by `wrangler dev` (its local observability, on by default since wrangler
 * 4.118): it slowed each request and filled the local state without bound
 * (docs/benchmarks.md#wrangler-devs-local-traces). `npm start` keeps a developer's own X_LOCAL_OBSERVABILITY.
 */
export const QUIET_WRANGLER = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  X_LOCAL_OBSERVABILITY: "false",
} as const;

/** Whether process `pid` runs (a process of another user's included). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A binary installed by npm (node_modules/.bin). */
export const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

/**
 * Node's flags for an import, as `npm run db:import` runs it (package.json): V8's young generation
 * capped at 4 MiB semi-spaces. The import makes short-lived strings by the million, and Node's
 * default semi-spaces kept ~180 MiB of them resident (1M venues: peak 583 → 404 MiB, same time;
 * docs/import.md#memory). The processes of a sharded import run with them too.
 */
export const IMPORT_NODE_FLAGS = ["--max-semi-space-size=4"] as const;

/** The arguments of `tsx` that run the import as `npm run db:import` does. */
export const IMPORT_COMMAND = [...IMPORT_NODE_FLAGS, "scripts/import.ts"] as const;

export interface RunOptions {
  /** Echo the program's output to our stderr as it comes. */
  echo?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Resolve with the program's standard output alone (an answer to parse), not with its stderr too. */
  stdoutOnly?: boolean;
}

/**
 * Runs a program in the project root to completion; resolves with its output, rejects on a failure
 * exit (RunError) or when it cannot be started (the spawn error: ENOENT, EACCES).
 */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = start(command, args, { env: options.env });
    // Each stream decoded as a stream: a character's bytes may be split between two chunks.
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    let output = "";
    let stdout = "";
    const collect = (d: string) => {
      output += d;
      if (options.echo) process.stderr.write(d);
    };
    child.stdout?.on("data", (d: string) => {
      if (options.stdoutOnly) stdout += d;
      collect(d);
    });
    child.stderr?.on("data", collect);
    child.on("error", reject);
    // "close", not "exit": the program's output may still be on its way when it has exited.
    child.on("close", (code) => {
      if (code === 0) resolve(options.stdoutOnly ? stdout : output);
      else reject(new RunError(`${command} ${args.join(" ")} exited with ${code}`, output));
    });
  });
}

/** A program that exited with a failure: its command line and the end of what it printed. */
export class RunError extends Error {
  override name = "RunError";
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(`${message}:\n${output.trim().slice(-2000)}`);
  }
}

/**
 * Starts a program in the project root with piped output. `detached` puts it in a process group
 * of its own, so that stopGroup() stops its children too (wrangler dev starts workerd).
 */
export function start(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; detached?: boolean } = {},
): ChildProcess {
  return spawn(command, args, {
    cwd: ROOT,
    detached: options.detached ?? false,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...QUIET_WRANGLER, ...options.env },
  });
}

/** Stops a detached child and everything it started. */
export function stopGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}
