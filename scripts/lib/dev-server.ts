/**
 * `wrangler dev` for the benchmark, the load test and the browser test: on 127.0.0.1, in a process
 * group of its own so that stopping it stops workerd too, ready when a probe request answers.
 */
import { bin, start, stopGroup } from "./project.ts";

export interface DevServer {
  base: string;
  pid: number;
  stop(): void;
}

const running = new Set<DevServer>();

/** Stops every server started here (on Ctrl-C, or when a run fails). */
export function stopDevServers(): void {
  for (const server of running) server.stop();
}

export async function startDevServer(options: {
  port: number;
  /** More arguments for `wrangler dev`: --config, --persist-to, --var … */
  args?: string[];
  /** A path that answers once the worker serves (any status below 500). */
  probe?: string;
}): Promise<DevServer> {
  const child = start(
    bin("wrangler"),
    [
      "dev",
      ...(options.args ?? []),
      "--ip",
      "127.0.0.1",
      "--port",
      String(options.port),
      "--inspector-port",
      String(options.port + 1000),
      "--log-level",
      "error",
    ],
    { detached: true },
  );
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const server: DevServer = {
    base: `http://127.0.0.1:${options.port}`,
    pid: child.pid ?? 0,
    stop() {
      running.delete(server);
      stopGroup(child);
    },
  };
  running.add(server);
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
