/**
 * `npm start`'s line about the traces an earlier `wrangler dev` left in the local state
 * (scripts/tools/old-traces.ts): said from 100 MiB, with where and how much, and not while a
 * developer keeps the traces on.
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { oldTracesNotice, tracesDir } from "../../scripts/tools/old-traces.ts";

const state = mkdtempSync(join(tmpdir(), "vcs-traces-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

/** A trace store of `bytes` (a sparse file: its size, not its blocks). */
function traces(bytes: number): void {
  const dir = join(tracesDir(state), "miniflare-wobs-trace-store");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "store.sqlite");
  writeFileSync(file, "");
  truncateSync(file, bytes);
}

describe("the traces an earlier wrangler dev left", () => {
  it("says nothing of none, or of a few", () => {
    expect(oldTracesNotice(state, {})).toBeNull();
    traces(99 * 2 ** 20);
    expect(oldTracesNotice(state, {})).toBeNull();
  });

  it("says where they lie and how much room they take, unless they are kept on", () => {
    traces(3 * 2 ** 30);
    const line = oldTracesNotice(state, {});
    expect(line).toContain("take 3.0 GiB in ");
    expect(line).toContain(join("v3", "observability"));
    expect(line).toContain("X_LOCAL_OBSERVABILITY=true npm start keeps them");
    expect(oldTracesNotice(state, { X_LOCAL_OBSERVABILITY: "true" })).toBeNull();
  });
});
