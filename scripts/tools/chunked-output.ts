import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { finished } from "node:stream/promises";

/** Output is written in chunks of this many bytes (fewer, larger writes). */
const CHUNK_BYTES = 1 << 20;

/**
 * Lines into a file through a reused buffer: each row's strings die young (strings kept until a
 * write, as a chunk built by +=, outlive V8's young generation and pile up in the old one).
 */
export class ChunkedOutput {
  rows = 0;
  private readonly output: WriteStream;
  private failure: unknown;
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  constructor(
    path: string,
    private readonly onRow: (rows: number) => void,
  ) {
    this.output = createWriteStream(path);
    this.output.on("error", (e) => (this.failure = e));
  }

  async add(line: string): Promise<void> {
    // At most 3 UTF-8 bytes per UTF-16 unit, and the newline.
    const most = line.length * 3 + 1;
    if (this.used + most > this.buffer.length) await this.flush();
    if (most > this.buffer.length) await this.write(line + "\n");
    else {
      this.used += this.buffer.write(line, this.used);
      this.buffer[this.used++] = 0x0a;
    }
    this.onRow(++this.rows);
  }

  /** Writes what is left; the bytes written in all. */
  async close(): Promise<number> {
    await this.flush();
    this.output.end();
    await finished(this.output);
    return this.output.bytesWritten;
  }

  destroy(): void {
    this.output.destroy();
  }

  private async write(data: Buffer | string): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    // Backpressure: the file grows no faster than the disk takes it, so memory stays flat.
    if (!this.output.write(data)) await once(this.output, "drain");
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const full = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    await this.write(full);
  }
}
