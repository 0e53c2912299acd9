import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

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
