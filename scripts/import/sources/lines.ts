/** Reading line-based source files: lines with their numbers, and each line as a checked row. */
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import type { Problems } from "../problems.ts";

/** Lines of a UTF-8 text file with their 1-based numbers; CRLF and a BOM are tolerated. */
export async function* readLines(path: string): AsyncGenerator<[line: string, lineNo: number]> {
  const input = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
  const reader = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const raw of reader) {
    lineNo++;
    yield [lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw, lineNo];
  }
}

/**
 * The rows of a line-based file: each line that is not blank (nor a `#` comment, unless
 * `comments` is false) read by `read`, in order. A line that `read` rejects with a RowError is
 * recorded in `problems` as `file:line: reason` and skipped.
 */
export async function* checkedLines<T>(
  path: string,
  problems: Problems,
  read: (line: string, lineNo: number) => T,
  { comments = true }: { comments?: boolean } = {},
): AsyncGenerator<T> {
  const file = basename(path);
  for await (const [line, lineNo] of readLines(path)) {
    if (line.trim() === "" || (comments && line.startsWith("#"))) continue;
    const row = problems.row(file, lineNo, () => ({ value: read(line, lineNo) }));
    if (row !== undefined) yield row.value;
  }
}
