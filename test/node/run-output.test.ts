/**
 * A program's output as scripts/tools/project.ts run() hands it on (the import reads wrangler's
 * JSON answers so, megabytes at a time when it reads a mirror back): every character whole where
 * the pipe cut its bytes between two chunks, and every byte there when the program has exited.
 */
import { describe, expect, it } from "vitest";
import { run } from "../../scripts/tools/project.ts";

/** 2-, 3- and 4-byte characters, so that chunks of any size cut some of them. */
const TEXT = "aé€𝒳".repeat(200_000);

describe("run()", () => {
  it("hands on a program's output of several MB whole, characters that a chunk cut included", async () => {
    const program = `process.stdout.write("aé€𝒳".repeat(200000)); process.stderr.write("é")`;
    const stdout = await run(process.execPath, ["-e", program], { stdoutOnly: true });
    expect(stdout.length).toBe(TEXT.length);
    expect(stdout === TEXT).toBe(true);
    const both = await run(process.execPath, ["-e", program]);
    expect(both.length).toBe(TEXT.length + 1);
  });
});
