/** The memory the load test watches: the worker isolate's V8 heap and the workerd processes' RSS. */
import { readdirSync, readFileSync } from "node:fs";
import WebSocket from "ws";
import { logger } from "../../tools/dev-server.ts";

/** Resident memory (KiB) of all workerd processes descending from `root`. */
function workerdRssKiB(root: number): number {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      name.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, comm] of name) {
    if (comm !== "workerd" || !descends(pid)) continue;
    try {
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      total += Number(rss ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** The worker isolate's V8 heap, through the inspector protocol that `wrangler dev` serves. */
class Inspector {
  private nextId = 0;
  private constructor(private readonly socket: WebSocket) {}

  static async connect(port: number): Promise<Inspector> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    return new Inspector(socket);
  }

  private send(method: string): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), 10_000);
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
        if (message.id !== id) return;
        clearTimeout(timer);
        this.socket.off("message", onMessage);
        resolve(message.result ?? {});
      };
      this.socket.on("message", onMessage);
      this.socket.send(JSON.stringify({ id, method }));
    });
  }

  /** MiB in use after a garbage collection: the JS heap plus the array buffers outside it. */
  async heapMiB(): Promise<number> {
    await this.send("HeapProfiler.collectGarbage");
    const usage = await this.send("Runtime.getHeapUsage");
    const bytes = ["usedSize", "embedderHeapUsedSize", "backingStorageSize"].reduce(
      (n, k) => n + Number(usage[k] ?? 0),
      0,
    );
    return bytes / 2 ** 20;
  }

  close(): void {
    this.socket.close();
  }
}

export interface MemorySample {
  /** Seconds since sampling started. */
  t: number;
  heapMiB: number;
  rssMiB: number;
}

/** Samples the heap (after a GC) and the RSS every `everyMs` until stopped; one sample at a time. */
export async function sampleMemory(inspectorPort: number, serverPid: number, everyMs: number) {
  const log = logger("load");
  const inspector = await Inspector.connect(inspectorPort);
  const samples: MemorySample[] = [];
  const started = Date.now();
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    const t = (Date.now() - started) / 1000;
    inspector
      .heapMiB()
      .then((heapMiB) => samples.push({ t, heapMiB, rssMiB: workerdRssKiB(serverPid) / 1024 }))
      .catch((error: unknown) => log(`heap sample failed: ${String(error)}`))
      .finally(() => (sampling = false));
  }, everyMs);
  return {
    samples,
    async stop(): Promise<void> {
      clearInterval(timer);
      while (sampling) await new Promise((r) => setTimeout(r, 50));
      inspector.close();
    },
  };
}

/** The median of one measure over the samples of one quarter (0–3) of a run of `seconds`. */
export function quarterMedian(samples: readonly MemorySample[], seconds: number, q: number, of: "heapMiB" | "rssMiB") {
  const part = samples.filter((s) => s.t >= (seconds * q) / 4 && s.t < (seconds * (q + 1)) / 4).map((s) => s[of]);
  part.sort((a, b) => a - b);
  return part[Math.floor(part.length / 2)] ?? 0;
}
