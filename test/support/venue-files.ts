/** Venue files written for a test, and what the import's readers make of them (scripts/import/sources/). */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Problems } from "../../scripts/import/problems.ts";
import { readVenueFiles } from "../../scripts/import/sources/venue-files.ts";
import { DEFAULT_SELECTION } from "../../scripts/import/sources/venue-selection.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-sources-"));

/** A file of this name and content in a scratch directory: its path. */
export function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

export const problemsOf = (p: Problems) => p.reported();

export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The venues of one file, whatever its format. */
export const venuesOf = (path: string, problems: Problems) =>
  all(readVenueFiles([path], DEFAULT_SELECTION, problems, []));
