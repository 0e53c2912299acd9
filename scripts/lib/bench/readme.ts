/** Writes a generated block of text between two markers of README.md (`<!-- name:start -->`, `<!-- name:end -->`). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../project.ts";

export function writeReadmeSection(name: string, text: string): boolean {
  const path = join(ROOT, "README.md");
  const readme = readFileSync(path, "utf8");
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  if (!readme.includes(start) || !readme.includes(end)) return false;
  writeFileSync(
    path,
    `${readme.slice(0, readme.indexOf(start) + start.length)}\n${text}\n${readme.slice(readme.indexOf(end))}`,
  );
  return true;
}
