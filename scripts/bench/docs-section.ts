/**
 * Writes a generated block of text between two markers of docs/benchmarks.md, or of another
 * document of the repository (`<!-- name:start -->`, `<!-- name:end -->`), formatted as
 * `npm run check` wants it (prettier).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { ROOT } from "../tools/project.ts";

export async function writeDocSection(
  name: string,
  text: string,
  file = join("docs", "benchmarks.md"),
): Promise<boolean> {
  const path = join(ROOT, file);
  const doc = readFileSync(path, "utf8");
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  if (!doc.includes(start) || !doc.includes(end)) return false;
  const next = `${doc.slice(0, doc.indexOf(start) + start.length)}\n${text}\n${doc.slice(doc.indexOf(end))}`;
  writeFileSync(path, await format(next, { ...(await resolveConfig(path)), filepath: path }));
  return true;
}
