/**
 * Import progress on stderr: on a TTY one live line per phase (rows, rows/s); otherwise one
 * line per phase, so logs stay readable.
 */
export class Progress {
  private name = "";
  private total = 0;
  private started = 0;
  private lastDraw = 0;
  private readonly live: boolean;
  readonly startedAt = Date.now();

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {
    this.live = out.isTTY === true && !quiet;
  }

  phase(name: string, total = 0): void {
    this.finishLine();
    this.name = name;
    this.total = total;
    this.started = Date.now();
    if (this.quiet) return;
    if (this.live) this.draw(0, true);
    else this.out.write(`[${this.elapsed()}] ${name}${total ? ` (${total.toLocaleString("en-US")} rows)` : ""}\n`);
  }

  tick(done: number): void {
    if (this.live) this.draw(done, false);
  }

  /** Prints a line of its own (a warning, the summary). */
  line(text: string): void {
    this.finishLine();
    if (!this.quiet) this.out.write(`${text}\n`);
  }

  /** Seconds since the import started, for log lines. */
  private elapsed(): string {
    return `${((Date.now() - this.startedAt) / 1000).toFixed(1).padStart(5)} s`;
  }

  private draw(done: number, force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = done > 0 ? `, ${Math.round(done / seconds).toLocaleString("en-US")} rows/s` : "";
    const of = this.total ? ` of ${this.total.toLocaleString("en-US")}` : "";
    const count = done > 0 || this.total ? `: ${done.toLocaleString("en-US")}${of}${rate}` : "";
    this.out.write(`\r\x1b[2K${this.name}${count}`);
  }

  private finishLine(): void {
    if (this.live && this.name) this.out.write("\n");
    this.name = "";
  }

  done(): void {
    this.finishLine();
  }
}
