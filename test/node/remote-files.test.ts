/**
 * How a remote import's statements are cut into files (scripts/import/publish/remote-files.ts):
 * parts of one kind share a file while it has room, a part without a kind has a file of its own, no
 * file passes 20 MB, merges at most their number a file; each file records itself as applied.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, writeRemoteFiles, type StatementSink } from "../../scripts/import/publish/remote-files.ts";
import type { RemotePart } from "../../scripts/import/publish/remote.ts";

const sink: StatementSink = { begin: () => undefined, run: () => undefined, end: () => 0 };
const statements = (n: number, bytes = 10) =>
  Array.from({ length: n }, (_, i) => ({ sql: `INSERT INTO t VALUES (${i}, '${"x".repeat(bytes)}')`, rows: 1 }));

function cut(parts: RemotePart[]) {
  const dir = mkdtempSync(join(tmpdir(), "vcs-remote-files-"));
  const files = writeRemoteFiles(parts, "v1", dir, sink, () => undefined);
  return files.map((f) => ({ ...f, text: readFileSync(join(dir, f.name), "utf8") }));
}

describe("the files of a remote import", () => {
  it("puts small parts of one kind in one file, and a part without a kind in a file of its own", () => {
    const files = cut([
      { what: "creating the stage tables", statements: statements(2) },
      { what: "rows of a", statements: statements(3), joins: "inserts" },
      { what: "rows of b", statements: [], joins: "inserts" },
      { what: "documents of c", statements: statements(2), joins: "inserts" },
      { what: "merging c", statements: statements(30), perFile: 50, joins: "merges" },
      { what: "merging d", statements: statements(30), perFile: 50, joins: "merges" },
      { what: "swapping", statements: statements(1) },
      { what: "dropping", statements: statements(1), last: true },
    ]);
    expect(files.map((f) => f.what)).toEqual([
      "creating the stage tables",
      "rows of a … documents of c",
      "merging c … merging d",
      "merging d",
      "swapping",
      "dropping",
    ]);
    expect(files.map((f) => f.rows)).toEqual([3, 6, 51, 11, 2, 1]);
    // Every file but the last records itself, once.
    for (const f of files.slice(0, -1)) expect(f.text.match(/INSERT OR REPLACE INTO import_progress/g)).toHaveLength(1);
    expect(files.at(-1)?.text).not.toContain("import_progress");
  });

  it("starts a new file before one would pass 20 MB, the part going on in it", () => {
    const big = 90_000;
    const files = cut([
      { what: "rows of a", statements: statements(150, big), joins: "inserts" },
      { what: "rows of b", statements: statements(150, big), joins: "inserts" },
      { what: "dropping", statements: statements(1), last: true },
    ]);
    expect(files.length).toBeGreaterThan(2);
    for (const f of files) expect(Buffer.byteLength(f.text)).toBeLessThanOrEqual(MAX_FILE_BYTES + 200);
    expect(files.map((f) => f.what).slice(0, 2)).toEqual(["rows of a … rows of b", "rows of b"]);
  });
});
