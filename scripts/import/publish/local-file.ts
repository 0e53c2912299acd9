/**
 * The local publisher (local.ts) on a SQLite file: the local D1's, or one `--database` names.
 */
import Database from "better-sqlite3";
import type { Progress } from "../progress.ts";
import { storedDataVersion } from "../target.ts";
import { publishLocal } from "./local.ts";
import { FAST, type LocalPublishOptions } from "./steps.ts";

/**
 * How the local publisher paces its writes into `targetPath`: as `given`, else FAST where no one
 * reads it (a file target; a target without data yet, whose worker answers 503), else paced.
 */
export const pacingOf = (given: LocalPublishOptions | undefined, isFile: boolean, targetPath: string) =>
  given ?? (isFile || !storedDataVersion(targetPath) ? FAST : {});

/** The build published into the file at `targetPath`; staged alone with `swapLater`, with the meta rows its swap writes. */
export async function publishToFile(
  targetPath: string | null,
  buildDb: Database.Database | null,
  meta: [string, string][],
  progress: Progress,
  options: LocalPublishOptions & { swapLater: boolean },
): Promise<{ longestWrite?: { ms: number; doing: string }; stagedMeta?: [string, string][] }> {
  if (buildDb === null || targetPath === null) return {};
  const served = new Database(targetPath, { fileMustExist: true });
  try {
    served.pragma("busy_timeout = 10000");
    served.pragma("cache_size = -65536"); // 64 MiB: index and FTS pages stay in memory
    const published = await publishLocal(served, buildDb, meta, progress, options);
    return options.swapLater ? { ...published, stagedMeta: meta } : published;
  } finally {
    served.close();
  }
}
