/**
 * `mbdump/place` out of a MusicBrainz `place.tar.xz`, as a stream: xz decoded by xz-decompress (a
 * maintained WebAssembly build of XZ Embedded, no native code and no system `xz` needed), the tar
 * read by tar-stream; every other member of the archive (TIMESTAMP, COPYING, README, …) skipped.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { extract } from "tar-stream";
import xz from "xz-decompress";
import { FetchError } from "../http.ts";

const MEMBER = "mbdump/place";
// A UMD module: its classes are properties of the default export under Node's ESM loader.
const { XzReadableStream } = xz;

/** Counts the lines going through (one place per line; the dump's last line has no newline). */
function lineCounter(onLines: (n: number) => void): Transform & { lines: () => number } {
  let lines = 0;
  let last = 0x0a;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (const byte of chunk) if (byte === 0x0a) lines++;
      if (chunk.length > 0) last = chunk[chunk.length - 1] ?? last;
      onLines(lines);
      done(null, chunk);
    },
  });
  return Object.assign(counter, { lines: () => lines + (last === 0x0a ? 0 : 1) });
}

/** Writes the archive's mbdump/place to `out`; returns its number of places (lines). */
export async function extractPlaces(archive: string, out: string, onLines: (n: number) => void): Promise<number> {
  const compressed = Readable.toWeb(createReadStream(archive)) as unknown as ReadableStream<Uint8Array>;
  const tar = Readable.fromWeb(new XzReadableStream(compressed) as unknown as WebReadableStream<Uint8Array>);
  const entries = extract();
  let places: number | null = null;
  const reading = (async () => {
    for await (const entry of entries) {
      if (entry.header.name.replace(/^\.\//, "") === MEMBER && places === null) {
        const counter = lineCounter(onLines);
        await pipeline(entry, counter, createWriteStream(out));
        places = counter.lines();
      } else entry.resume();
    }
  })();
  await Promise.all([pipeline(tar, entries), reading]).catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "ENOSPC") throw error;
    throw new FetchError(`the archive cannot be read (${error instanceof Error ? error.message : String(error)})`);
  });
  if (places === null) throw new FetchError(`the archive holds no ${MEMBER}`);
  return places;
}
