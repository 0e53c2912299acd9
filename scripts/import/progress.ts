/**
 * Import progress on stderr: on a TTY one live line per phase (rows, rows/s); otherwise one
 * line per phase, so logs stay readable. Every phase's rows and time are kept for the summary.
 */
import { workerCpuSeconds } from "../tools/in-worker.ts";

export interface PhaseFigures {
  name: string;
  rows: number;
  seconds: number;
  /**
   * CPU seconds of the phase's work: this thread's, and its worker threads' on the jobs answered
   * in it (a search index built beside several phases counts in the one that waits for it).
   * Steadier than the seconds on a busy machine; the benchmark's guard compares them
   * (scripts/bench/phase-guard.ts).
   */
  cpuSeconds: number;
  /** The process's peak resident memory so far, at the end of the phase (so a phase that raised it shows). */
  peakMiB: number;
}

/** CPU seconds (user and system) this thread and the answered jobs of its workers have used so far. */
function cpuSeconds(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1e6 + workerCpuSeconds();
}

export class Progress {
  private name = "";
  private total = 0;
  private count = 0;
  private started = 0;
  private startedCpu = 0;
  private lastDraw = 0;
  private detail = "";
  private readonly live: boolean;
  readonly startedAt = Date.now();
  readonly phases: PhaseFigures[] = [];

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {
    this.live = out.isTTY === true && !quiet;
  }

  phase(name: string, total = 0): void {
    this.finish();
    this.name = name;
    this.total = total;
    this.count = 0;
    this.detail = "";
    this.started = Date.now();
    this.startedCpu = cpuSeconds();
    if (this.quiet) return;
    if (this.live) this.draw(true);
    else this.out.write(`[${this.elapsed()}] ${name}${total ? ` (${total.toLocaleString("en-US")} rows)` : ""}\n`);
  }

  /** Rows done so far; `detail` says more on the live line (a download's bytes). */
  tick(done: number, detail = ""): void {
    this.count = done;
    this.detail = detail;
    if (this.live) this.draw(false);
  }

  /** Prints a line of its own (a warning, the summary). */
  line(text: string): void {
    this.finish();
    if (!this.quiet) this.out.write(`${text}\n`);
  }

  /** Ends the current phase. */
  end(): void {
    this.finish();
  }

  /** Seconds since the import started, for log lines. */
  private elapsed(): string {
    return `${((Date.now() - this.startedAt) / 1000).toFixed(1).padStart(5)} s`;
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = this.count > 0 ? `, ${Math.round(this.count / seconds).toLocaleString("en-US")} rows/s` : "";
    const of = this.total ? ` of ${this.total.toLocaleString("en-US")}` : "";
    const count = this.count > 0 || this.total ? `: ${this.count.toLocaleString("en-US")}${of}${rate}` : "";
    this.out.write(`\r\x1b[2K${this.name}${count}${this.detail === "" ? "" : `, ${this.detail}`}`);
  }

  private finish(): void {
    if (this.name === "") return;
    this.phases.push({
      name: this.name,
      rows: this.count,
      seconds: (Date.now() - this.started) / 1000,
      cpuSeconds: Math.round((cpuSeconds() - this.startedCpu) * 1000) / 1000,
      peakMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    });
    if (this.live) this.out.write("\n");
    this.name = "";
  }
}
