/**
 * Writes a generated block of text between two markers of docs/benchmarks.md
 * (`<!-- name:start -->`, `<!-- name:end -->`), formatted as `npm run check` wants it (prettier).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { ROOT } from "../tools/project.ts";

const BENCHMARKS_DOC = join(ROOT, "docs", "benchmarks.md");

export async function writeDocSection(name: string, text: string): Promise<boolean> {
  const doc = readFileSync(BENCHMARKS_DOC, "utf8");
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  if (!doc.includes(start) || !doc.includes(end)) return false;
  const next = `${doc.slice(0, doc.indexOf(start) + start.length)}\n${text}\n${doc.slice(doc.indexOf(end))}`;
  writeFileSync(
    BENCHMARKS_DOC,
    await format(next, { ...(await resolveConfig(BENCHMARKS_DOC)), filepath: BENCHMARKS_DOC }),
  );
  return true;
}
