/**
 * The check in `npm run check` that the folders of src/ import each other one way only
 * (.dependency-cruiser.json, docs/architecture.md): it passes on the worker's own src/, and fails,
 * naming the folders, on a small tree whose two folders import each other without any file-level
 * loop — type-only imports counted.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bin, ROOT } from "../../scripts/tools/project.ts";

const CONFIG = join(ROOT, ".dependency-cruiser.json");

function cruise(cwd: string): { status: number | null; output: string } {
  const run = spawnSync(bin("depcruise"), ["--config", CONFIG, "src"], { cwd, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A tree of files under a new folder: path → text. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "vcs-cycles-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("the folder-cycle check", () => {
  it("passes on src/", () => {
    const { status, output } = cruise(ROOT);
    expect(output).toContain("no dependency violations found");
    expect(status).toBe(0);
  });

  it("fails on two folders that import each other, though no file imports itself back", () => {
    const dir = tree({
      "src/query/search.ts": 'import { area } from "../geo/area.ts";\nexport const search = area;\n',
      "src/query/words.ts": "export type Word = string;\n",
      "src/geo/area.ts": "export const area = 1;\n",
      "src/geo/index.ts": 'import type { Word } from "../query/words.ts";\nexport const w: Word = "x";\n',
    });
    const { status, output } = cruise(dir);
    expect(status).not.toBe(0);
    expect(output).toMatch(/no-folder-cycle: src\/(query|geo)/);
  });
});
