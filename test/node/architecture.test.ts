/**
 * docs/architecture.md names every file of the worker (src/) and of the importer (scripts/import/),
 * so that a new module cannot go undescribed. A file is named by its path from the project root
 * anywhere in the page (`src/pipeline.ts`), or by its file name in backticks in a table row whose
 * first cell names its folder in backticks (`src/geo/` … `area.ts`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/tools/project.ts";

const DOC = "docs/architecture.md";

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

/** The files of `files` that the page names neither by path nor in its folder's table row. */
function unnamed(page: string, files: readonly string[]): string[] {
  const rows = page.split("\n").filter((line) => line.startsWith("|"));
  const inRow = (file: string) =>
    rows.some((row) => {
      const first = row.split("|")[1] ?? "";
      return first.includes(`\`${dirname(file)}/\``) && row.includes(`\`${basename(file)}\``);
    });
  return files.filter((file) => !page.includes(file) && !inRow(file));
}

describe(DOC, () => {
  it("names every file of src/ and scripts/import/", () => {
    const files = [...filesUnder("src"), ...filesUnder("scripts/import")];
    expect(files.length).toBeGreaterThan(100);
    expect(unnamed(readFileSync(join(ROOT, DOC), "utf8"), files)).toEqual([]);
  });

  it("counts a file as named by its path, or by its name in its folder's row only", () => {
    const page = "Read `src/a/b.ts`.\n\n| `src/c/` | `d.ts` and `e.ts` |\n| `src/f/` | `g.ts` |\n";
    const files = ["src/a/b.ts", "src/c/d.ts", "src/c/e.ts", "src/c/g.ts", "src/f/d.ts", "src/h.ts"];
    expect(unnamed(page, files)).toEqual(["src/c/g.ts", "src/f/d.ts", "src/h.ts"]);
  });
});
