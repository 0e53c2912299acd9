/**
 * Writes a generated block of text between two markers of README.md (`<!-- name:start -->`,
 * `<!-- name:end -->`), formatted as `npm run check` wants it (prettier).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { ROOT } from "../tools/project.ts";

export async function writeReadmeSection(name: string, text: string): Promise<boolean> {
  const path = join(ROOT, "README.md");
  const readme = readFileSync(path, "utf8");
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  if (!readme.includes(start) || !readme.includes(end)) return false;
  const next = `${readme.slice(0, readme.indexOf(start) + start.length)}\n${text}\n${readme.slice(readme.indexOf(end))}`;
  writeFileSync(path, await format(next, { ...(await resolveConfig(path)), filepath: path }));
  return true;
}
