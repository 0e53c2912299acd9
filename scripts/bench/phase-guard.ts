/**
 * The guard of the import's phases (docs/benchmarks.md#the-guard-of-the-import): an import at a
 * size a CI run can afford — 1,000,000 venues on a synthetic 2,000,000-city file, dense enough that
 * a cost growing with the cities around a venue shows — phase by phase, against the figures the last
 * full run stored (bench/phases.json). A phase more than 1.5 × slower per row fails the benchmark's
 * target check; the scale run's own phases are held to its previous figures likewise.
 *
 * Phases are compared by CPU seconds (import/progress.ts: the phase's thread and its workers'
 * jobs), steadier than wall time on a busy machine, the stored ones scaled by the machine's speed
 * then and now (calibrate.ts: the same machine was measured 3.5 × slower in an evening than in its
 * morning); those under a second in the stored run are too short to judge; a stored phase renamed
 * or gone is named, not judged. At a fixed size "per row" is per phase.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PhaseFigures } from "../import/progress.ts";
import { bin, ROOT, run } from "../tools/project.ts";
import { log, machine, timedImport, TMP } from "./common.ts";
import type { ImportFigures } from "./results.ts";
import type { Target } from "./targets.ts";
import { calibrate } from "./calibrate.ts";

const GUARD_SIZE = { cities: 2_000_000, venues: 1_000_000 };
const PHASES = join(ROOT, "bench", "phases.json");
/** How much slower per row a phase may be than its stored figure. */
const SLOWER = 1.5;
/** Stored phases shorter than this (CPU seconds) are not judged: their noise is larger than they are. */
const SHORTEST = 1;

export interface PhaseRate {
  /** The phase's name, its file names replaced (`reading the cities table`). */
  phase: string;
  seconds: number;
  cpuSeconds: number;
  rows: number;
}

/** An import's phases, and the seconds of calibrate.ts right after it. */
export interface PhaseRun {
  calibrationSeconds: number;
  phases: PhaseRate[];
}

export interface StoredPhases {
  date: string;
  machine: string;
  guard: PhaseRun;
  /** The scale run's 10M import, when it ran. */
  scale?: PhaseRun;
}

/** The phases of an import, named so that runs on other files compare. */
const phaseRates = (phases: readonly PhaseFigures[]): PhaseRate[] =>
  phases.map((p) => ({
    phase: p.name.replace(/^reading \S+\.txt$/, "reading the cities table"),
    seconds: p.seconds,
    cpuSeconds: p.cpuSeconds,
    rows: p.rows,
  }));

export function storedPhases(): StoredPhases | null {
  return existsSync(PHASES) ? (JSON.parse(readFileSync(PHASES, "utf8")) as StoredPhases) : null;
}

/** An import's phases with this machine's speed, measured right after it. */
export const phaseRun = (figures: ImportFigures): PhaseRun => ({
  calibrationSeconds: calibrate(),
  phases: phaseRates(figures.phases),
});

export function storePhases(guard: PhaseRun, scale?: PhaseRun): void {
  const stored: StoredPhases = { date: new Date().toISOString().slice(0, 10), machine: machine(), guard, scale };
  writeFileSync(PHASES, `${JSON.stringify(stored, null, 2)}\n`);
}

/** The guard-size import: the synthetic city file written once, then 1M venues on it into a scratch file. */
export async function guardImport(): Promise<{ figures: ImportFigures; run: PhaseRun }> {
  const cities = join(TMP, `synthetic-cities-${GUARD_SIZE.cities}.txt`);
  if (!existsSync(cities)) {
    log(`writing the synthetic ${GUARD_SIZE.cities.toLocaleString("en-US")}-city file for the guard`);
    await run(bin("tsx"), ["scripts/data-scale.ts", "--cities", String(GUARD_SIZE.cities), "--out", cities]);
  }
  log("the guard: 1,000,000 venues on the synthetic 2,000,000 cities, phase by phase");
  const file = join(TMP, "guard.sqlite");
  rmSync(file, { force: true });
  const figures = await timedImport(GUARD_SIZE.venues, ["--database", file], ["--cities", cities]);
  rmSync(file, { force: true });
  return { figures, run: phaseRun(figures) };
}

/** How much slower this machine is now than in the stored run, by the calibration (1: unknown). */
export const slowerNow = (now: PhaseRun, before: PhaseRun): number =>
  before.calibrationSeconds > 0 ? now.calibrationSeconds / before.calibrationSeconds : 1;

/** One target per judged phase: no more than 1.5 × its stored CPU seconds, at the machine's speed now. */
export function phaseTargets(label: string, now: PhaseRun, before: PhaseRun | undefined): Target[] {
  if (before === undefined) return [[`${label}: no stored phases to compare with (bench/phases.json)`, true]];
  const speed = slowerNow(now, before);
  const judged = before.phases.filter((b) => b.cpuSeconds >= SHORTEST);
  const slower = judged.flatMap((b) => {
    const n = now.phases.find((p) => p.phase === b.phase);
    return n === undefined ? [] : [{ phase: b.phase, ratio: n.cpuSeconds / (b.cpuSeconds * speed) }];
  });
  // A phase renamed or removed since the stored run has nothing to be compared with: named, not judged.
  const gone = judged.filter((b) => !now.phases.some((p) => p.phase === b.phase)).map((b) => b.phase);
  const worst = slower.filter((s) => !(s.ratio <= SLOWER));
  const top = [...slower].sort((a, b) => b.ratio - a.ratio)[0];
  const machine = `the machine ${speed.toFixed(2)} × as slow as in the stored run`;
  const text =
    (worst.length === 0
      ? `${label}: every phase within ${SLOWER} × its stored CPU time, ${machine} (slowest ${top?.phase ?? "none"}: ${top?.ratio.toFixed(2) ?? "-"} ×)`
      : `${label}: phases more than ${SLOWER} × slower than stored, ${machine}: ${worst.map((w) => `${w.phase} ${w.ratio.toFixed(2)} ×`).join("; ")}`) +
    (gone.length === 0 ? "" : `; stored phases not in this run (renamed or removed): ${gone.join("; ")}`);
  return [[text, worst.length === 0]];
}
