/**
 * `wrangler dev` for the benchmark, the load test and the browser test: on 127.0.0.1, in a process
 * group of its own so that stopping it stops workerd too, ready when a probe request answers.
 */
import { createServer } from "node:net";
import { devConfigArgs } from "./dev-configs.ts";
import { bin, start, stopGroup } from "./project.ts";

export interface DevServer {
  base: string;
  pid: number;
  /** The last lines the server printed (the worker's console among them), at most about 1 MiB. */
  output(): string;
  stop(): void;
}

const OUTPUT_KEPT = 1 << 20;

const running = new Set<DevServer>();

/** Stops every server started here (on Ctrl-C, or when a run fails). */
export function stopDevServers(): void {
  for (const server of running) server.stop();
}

let stopsOnInterrupt = false;

/** Ctrl-C stops the servers too (once any was started). */
function stopOnInterrupt(): void {
  if (stopsOnInterrupt) return;
  stopsOnInterrupt = true;
  process.on("SIGINT", () => {
    stopDevServers();
    process.exit(130);
  });
}

/** A log line on stderr, stamped with the time: `[name hh:mm:ss] text`. */
export const logger =
  (name: string) =>
  (text: string): void => {
    process.stderr.write(`[${name} ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
  };

/**
 * Fails when something listens on the port already: the probe would reach that server (another
 * checkout's tests on the same machine, say) and the tests would run against its code and data.
 */
function portFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `port ${port} is in use (another wrangler dev?): stop it, or run this when it is done`
            : `port ${port}: ${error.message}`,
        ),
      ),
    );
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

interface DevServerOptions {
  port: number;
  /** More arguments for `wrangler dev`: --config, --persist-to, --var … */
  args?: string[];
  /** A path that answers once the worker serves (any status below 500). */
  probe?: string;
  /** Whether the page's files are served beside the worker (scripts/tools/dev-configs.ts); they are unless false. */
  pageFiles?: boolean;
  /** Environment over the quiet one (project.ts QUIET_WRANGLER). */
  env?: NodeJS.ProcessEnv;
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  stopOnInterrupt();
  await portFree(options.port);
  const child = start(
    bin("wrangler"),
    [
      "dev",
      ...devConfigArgs(options.args ?? [], options.pageFiles),
      "--ip",
      "127.0.0.1",
      "--port",
      String(options.port),
      "--inspector-port",
      String(options.port + 1000),
      "--log-level",
      "error",
    ],
    { detached: true, ...(options.env === undefined ? {} : { env: options.env }) },
  );
  let output = "";
  const keep = (d: Buffer) => {
    output += d.toString();
    if (output.length > 2 * OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const server: DevServer = {
    base: `http://127.0.0.1:${options.port}`,
    pid: child.pid ?? 0,
    output: () => output.slice(-OUTPUT_KEPT),
    stop() {
      running.delete(server);
      stopGroup(child);
    },
  };
  running.add(server);
  // A server that dies on its own says why, whatever the script that started it is doing.
  child.on("exit", (code, signal) => {
    if (!running.has(server)) return;
    running.delete(server);
    process.stderr.write(
      `wrangler dev on port ${options.port} exited (${signal ?? code}); its last output:\n${output.slice(-8192)}\n`,
    );
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${server.base}${options.probe ?? "/"}`);
      await res.arrayBuffer();
      if (res.status < 500) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  server.stop();
  throw new Error(`wrangler dev on port ${options.port} did not start:\n${output}`);
}
