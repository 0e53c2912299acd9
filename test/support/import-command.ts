/**
 * `npm run db:import` as a person runs it, in the tests: the command in a process of its own (as
 * package.json runs it), its exit code and what it printed; the stand-in for the remote database
 * (the real wrangler on a local D1: scripts/tools/wrangler-d1-stand-in.sh); a free port for
 * `wrangler dev`.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { bin, IMPORT_COMMAND, ROOT } from "../../scripts/tools/project.ts";
import { standInEnv } from "../../scripts/tools/d1-stand-in-call.ts";

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run db:import -- ...args` with more environment; resolves when it exits. `onOutput` hears its stderr. */
export function importCommand(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  onOutput: (stderr: string) => void = () => undefined,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin("tsx"), [...IMPORT_COMMAND, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      onOutput(stderr);
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The environment that makes `--remote` the local D1 in `dir`, through the real wrangler, with the
 * mirror of what it holds (scripts/import/publish/remote-mirror.ts) in `dir` too.
 */
export const standInRemote = (dir: string, failFile?: string): NodeJS.ProcessEnv => ({
  ...standInEnv(dir),
  ...(failFile === undefined ? {} : { D1_STAND_IN_FAIL_FILE: failFile }),
});

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/**
 * A port free on 127.0.0.1 whose inspector port (+1000, scripts/tools/dev-server.ts) is free too:
 * the system's choice, so that two checkouts' tests on one machine never meet.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
      });
    });
    if (port > 0 && port + 1000 < 65536 && (await listens(port + 1000))) return port;
  }
}
