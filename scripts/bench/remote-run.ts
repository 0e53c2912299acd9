/**
 * `npm run bench -- --remote`: the remote import (`npm run db:import -- --remote`) at the default
 * size (250,000 venues) and at 1,000,000, through the real wrangler with a local D1 standing in for
 * the remote database (scripts/tools/wrangler-d1-stand-in.sh), each into a fresh stand-in: the
 * time, the SQL written, and the import's peak memory before writing the files, after writing them
 * and after applying them (its own peak resident memory, as every import reports it), and the
 * stand-in's processes (wrangler and workerd, which a real upload does not run: sampled each second);
 * what D1 counted (rows written, its size after and at most while the files applied) against what
 * the import's first line said; then the same import again, which finds its data version served
 * and sends nothing. `--venues N` measures that size alone. Each size's latest figures are kept in bench/remote.json;
 * the table of all of them goes into docs/benchmarks.md ("remote-import").
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportSummary } from "../import/run.ts";
import { bin, IMPORT_COMMAND, ROOT, run } from "../tools/project.ts";
import { log, machine, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import { standInEnv } from "../tools/d1-stand-in-call.ts";

const SIZES = [250_000, 1_000_000];
const STORED = join(ROOT, "bench", "remote.json");
/** The memory a remote import may take, at either size (issue 51). */
const TARGET_MIB = 512;

interface RemoteFigures {
  venues: number;
  date: string;
  machine: string;
  files: number;
  sqlMiB: number;
  seconds: number;
  writingSeconds: number;
  applyingSeconds: number;
  /** The import's peak resident memory: before writing the SQL files, after writing them, in all. */
  peakBeforeWritingMiB: number;
  peakAfterWritingMiB: number;
  peakMiB: number;
  /** The most the stand-in's processes (wrangler, workerd) held at once, sampled each second. */
  standInMiB: number;
  /** What D1 counted, and what the first line said: rows written, bytes sent, its size after and at most meanwhile. */
  d1?: {
    rowsWritten: number | null;
    predictedRows: number;
    bytes: number;
    sizeAfter: number | null;
    predictedAfter: number;
    peakSize: number | null;
    predictedPeak: number;
  };
  /** The same import again: what it sent (nothing, as its data version is served) and its time. */
  again?: { files: number; bytes: number; seconds: number };
}

/** Resident MiB of the stand-in's processes (the script, wrangler, the server that keeps its D1 open, workerd), summed. */
function standInResident(): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const [pid, ppid, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss), args: args.join(" ") };
    });
  const inStandIn = new Set(
    rows.filter((r) => /wrangler-d1-stand-in|d1-stand-in-server/.test(r.args)).map((r) => r.pid),
  );
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (inStandIn.has(r.ppid) && !inStandIn.has(r.pid)) {
        inStandIn.add(r.pid);
        grew = true;
      }
    }
  }
  return rows.reduce((sum, r) => sum + (inStandIn.has(r.pid) ? r.rss : 0), 0) / 1024;
}

const phaseSeconds = (s: ImportSummary, test: (name: string) => boolean) =>
  s.phases.filter((p) => test(p.name)).reduce((sum, p) => sum + p.seconds, 0);

async function measure(venues: number): Promise<RemoteFigures> {
  const state = join(TMP, `remote-state-${venues}`);
  rmSync(state, { recursive: true, force: true });
  log(`remote import of ${venues.toLocaleString("en-US")} venues into a local D1 standing in for the remote one`);
  const env = standInEnv(state);
  const args = [...IMPORT_COMMAND, "--remote", "--venue-count", String(venues), "--force", "--json", "-q"];
  let standInMiB = 0;
  const started = run(bin("tsx"), args, { env, stdoutOnly: true });
  const sampler = setInterval(() => {
    try {
      standInMiB = Math.max(standInMiB, standInResident());
    } catch {
      // ps failed once: the next sample counts
    }
  }, 1000);
  const output = await started.finally(() => clearInterval(sampler));
  const s = summaryOf(output);
  log("the same import again, unchanged");
  const again = summaryOf(
    await run(
      bin("tsx"),
      args.filter((a) => a !== "--force"),
      { env, stdoutOnly: true },
    ),
  );
  rmSync(state, { recursive: true, force: true });
  const writing = s.phases.findIndex((p) => p.name.startsWith("writing the SQL files"));
  return {
    venues,
    date: new Date().toISOString().slice(0, 16).replace("T", " "),
    machine: machine(),
    files: s.remote?.files ?? 0,
    sqlMiB: Math.round((s.remote?.bytes ?? 0) / 2 ** 20),
    seconds: s.seconds,
    writingSeconds: phaseSeconds(s, (n) => n.startsWith("writing the SQL files")),
    applyingSeconds: phaseSeconds(s, (n) => n.startsWith("remote file")),
    peakBeforeWritingMiB: s.phases[writing - 1]?.peakMiB ?? 0,
    peakAfterWritingMiB: s.phases[writing]?.peakMiB ?? 0,
    peakMiB: s.peakMiB,
    standInMiB: Math.round(standInMiB),
    d1: d1Figures(s),
    again: { files: again.remote?.files ?? 0, bytes: again.remote?.cost.bytes ?? 0, seconds: again.seconds },
  };
}

const summaryOf = (output: string) =>
  JSON.parse(output.trim().split("\n").at(-1) ?? "") as ImportSummary & { peakMiB: number };

function d1Figures(s: ImportSummary): RemoteFigures["d1"] {
  const r = s.remote;
  if (r?.applied === undefined) return undefined;
  return {
    rowsWritten: r.applied.rowsWritten,
    predictedRows: r.cost.rows,
    bytes: r.cost.bytes,
    sizeAfter: r.applied.sizeAfter,
    predictedAfter: r.cost.sizeAfter,
    peakSize: r.applied.peakSize,
    predictedPeak: r.cost.sizeDuring,
  };
}

/** What D1 counted against what the first line said, and the unchanged re-import. */
function d1Table(rows: readonly RemoteFigures[]): string[] {
  const n = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toLocaleString("en-US"));
  const mb = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${(x / 1e6).toFixed(1)} MB`);
  return [
    "What D1 counted (the stand-in's `meta.rows_written` and `meta.size_after`, summed over the files; its largest size after a file) against what the import's first line said before the first file; then the same command again:",
    "",
    "| measured (UTC) | venues | rows written (D1) | said before | SQL sent | size after (D1) | said | most meanwhile (D1) | said | again: files sent | bytes | time |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows
      .filter((r) => r.d1 !== undefined)
      .map(
        (r) =>
          `| ${r.date} | ${n(r.venues)} | ${n(r.d1?.rowsWritten)} | ${n(r.d1?.predictedRows)} | ${mb(r.d1?.bytes)} | ${mb(r.d1?.sizeAfter)} | ${mb(r.d1?.predictedAfter)} | ${mb(r.d1?.peakSize)} | ${mb(r.d1?.predictedPeak)} | ${n(r.again?.files)} | ${n(r.again?.bytes)} | ${r.again?.seconds.toFixed(1) ?? "—"} s |`,
      ),
  ];
}

function table(rows: readonly RemoteFigures[]): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return [
    `Measured with \`npm run bench -- --remote\` (the real wrangler on a local D1 standing in for the remote database; each size into a fresh one), on ${rows[0]?.machine ?? "?"}. Peak memory is the import process's own peak resident set (as its summary reports it) by the end of the phase; the stand-in's is wrangler's and workerd's together, sampled each second, which a real upload does not run.`,
    "",
    "| measured (UTC) | venues | SQL files | SQL | import | writing | applying | peak before writing | after writing | peak in all | stand-in (wrangler, workerd) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.date} | ${n(r.venues)} | ${r.files} | ${n(r.sqlMiB)} MiB | ${r.seconds.toFixed(1)} s | ${r.writingSeconds.toFixed(1)} s | ${r.applyingSeconds.toFixed(1)} s | ${r.peakBeforeWritingMiB} MiB | ${r.peakAfterWritingMiB} MiB | **${r.peakMiB} MiB** | ${n(r.standInMiB)} MiB |`,
    ),
    "",
    ...d1Table(rows),
  ].join("\n");
}

function verdict(met: boolean, what: string): void {
  console.log(`${met ? "met   " : "MISSED"}  ${what}`);
  if (!met) process.exitCode = 1;
}

const stored = (): RemoteFigures[] =>
  existsSync(STORED) ? (JSON.parse(readFileSync(STORED, "utf8")) as RemoteFigures[]) : [];

export async function benchRemote(sizes: readonly number[] = SIZES): Promise<void> {
  const rows = stored();
  for (const venues of sizes) {
    const figures = await measure(venues);
    const kept = rows.filter((r) => r.venues !== venues);
    rows.splice(0, rows.length, ...kept, figures);
    rows.sort((a, b) => a.venues - b.venues);
    writeFileSync(STORED, `${JSON.stringify(rows, null, 2)}\n`);
  }
  const text = table(rows);
  console.log(`\n${text}\n`);
  for (const r of rows) {
    verdict(r.peakMiB <= TARGET_MIB, `remote import of ${r.venues} venues within ${TARGET_MIB} MiB: ${r.peakMiB} MiB`);
    if (r.d1 === undefined || r.again === undefined) continue;
    verdict(
      r.d1.rowsWritten === r.d1.predictedRows,
      `D1 counted the rows said: ${r.d1.rowsWritten} of ${r.d1.predictedRows}`,
    );
    verdict(r.again.files === 0, `the unchanged re-import sent nothing: ${r.again.files} files`);
  }
  if (await writeDocSection("remote-import", text)) log("wrote the table into docs/benchmarks.md (remote-import)");
}
