/**
 * Work done in worker threads, in order: jobs posted to workers (a module that answers each
 * message with one message, and the CPU time it took), their answers in the order of the jobs —
 * yielded a few jobs ahead so no worker waits (inWorker, with one or more workers), or each
 * awaited when needed (JobWorker). The import hands its pure, costly row-making to them (names,
 * search text) while the main thread reads, places and writes: every core instead of one.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Threads for a phase whose row-making is the work (cities read, venues generated): the main thread
 * mostly waits meanwhile, so two keep both of this machine's cores busy; each more worker holds a V8
 * heap of its own (docs/import.md#memory).
 */
export const ROW_WORKERS = Math.min(2, availableParallelism());

/** Jobs in flight at most: enough to keep the worker busy while the answer of one is used. */
const AHEAD = 3;

/**
 * A worker's heap, capped: its jobs are small and what they leave is garbage, but an uncapped heap
 * grows between collections, and V8 keeps a heap's pages (docs/import.md#memory). The generator's
 * two workers, 1M venues on 2M cities: peak 382 MiB uncapped, 370 so (2026-11-27).
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/** The worker, with the loader that runs TypeScript (tsx) in it as in this thread (found as require finds it: vitest's module runner has no import.meta.resolve). */
function startWorker(module: URL): Worker {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return new Worker(module, { execArgv: ["--import", tsx], resourceLimits: WORKER_HEAP });
}

/** What a worker posts for each job: the answer, and the CPU time its thread spent on it. */
interface Answered<A> {
  answer: A;
  cpuMicros: number;
}

let workerCpuMicros = 0;
/** CPU seconds the worker threads have spent on the jobs answered so far (import/progress.ts counts them). */
export const workerCpuSeconds = (): number => workerCpuMicros / 1e6;
const answerOf = <A>(m: Answered<A>): A => {
  workerCpuMicros += m.cpuMicros;
  return m.answer;
};

const stopped = (code: number) => new Error(`a worker thread of the import stopped (exit code ${code})`);

/**
 * A worker running `module` that takes jobs at any time, each posted at once and answered in
 * order: the worker works while this thread goes on synchronously. (inWorker, a generator, posts
 * its first job only when this thread next awaits: a long synchronous phase would leave it idle.)
 */
export class JobWorker<J, A> {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (answer: A) => void; reject: (e: unknown) => void }[] = [];

  constructor(module: URL) {
    this.worker = startWorker(module);
    const failAll = (error: unknown) => {
      for (const w of this.waiting.splice(0)) w.reject(error);
    };
    this.worker.on("message", (m: Answered<A>) => this.waiting.shift()?.resolve(answerOf(m)));
    this.worker.on("error", failAll);
    this.worker.on("exit", (code) => failAll(stopped(code)));
  }

  post(job: J): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
  }
}

/**
 * The answer of each job, in the order of the jobs, from `workers` workers running `module`, the
 * jobs dealt to them in turn (a module answering jobs on more than one thread must not depend on
 * their order).
 */
export async function* inWorker<J, A>(
  module: URL,
  jobs: Iterable<J> | AsyncIterable<J>,
  workers = 1,
): AsyncGenerator<A> {
  const threads = Array.from({ length: workers }, () => new JobWorker<J, A>(module));
  const inFlight: Promise<A>[] = [];
  let dealt = 0;
  try {
    for await (const job of jobs) {
      inFlight.push((threads[dealt++ % workers] as JobWorker<J, A>).post(job));
      if (inFlight.length >= AHEAD * workers) yield await (inFlight.shift() as Promise<A>);
    }
    while (inFlight.length > 0) yield await (inFlight.shift() as Promise<A>);
  } finally {
    await Promise.all(threads.map((t) => t.close()));
  }
}

/** Runs `answer` on every job posted to this worker thread (the module a worker runs calls it). */
export async function answerJobs<J, A>(answer: (job: J) => A): Promise<void> {
  const { parentPort } = await import("node:worker_threads");
  parentPort?.on("message", (job: J) => {
    const before = process.threadCpuUsage();
    const result = answer(job);
    const used = process.threadCpuUsage(before);
    parentPort.postMessage({ answer: result, cpuMicros: used.user + used.system } satisfies Answered<A>);
  });
}
