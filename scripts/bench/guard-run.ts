/**
 * `npm run bench -- --guard`: the guard of the import's phases alone (phase-guard.ts), in the time a
 * CI run can afford; exits 1 when a phase is more than 1.5 × slower than the stored figures. With
 * none stored yet (no scale run on this clone), it stores its own for the next runs to be held to.
 */
import { log } from "./common.ts";
import { guardImport, phaseTargets, slowerNow, storedPhases, storePhases } from "./phase-guard.ts";

export async function benchGuard(): Promise<void> {
  const { figures, run } = await guardImport();
  const stored = storedPhases();
  log(`  ${figures.seconds.toFixed(1)} s, ${figures.peakMiB} MiB (stored figures of ${stored?.date ?? "no run"})`);
  const speed = stored === null ? 1 : slowerNow(run, stored.guard);
  log(`  calibration ${run.calibrationSeconds} s (stored ${stored?.guard.calibrationSeconds ?? "-"} s)`);
  for (const p of run.phases) {
    const before = stored?.guard.phases.find((b) => b.phase === p.phase);
    const was =
      before === undefined
        ? ""
        : ` (stored ${before.cpuSeconds.toFixed(1)} s, now ${(before.cpuSeconds * speed).toFixed(1)} s)`;
    console.log(`${p.cpuSeconds.toFixed(1).padStart(7)} s CPU ${p.seconds.toFixed(1).padStart(7)} s  ${p.phase}${was}`);
  }
  if (stored === null) {
    storePhases(run);
    log("  no stored figures: these are stored in bench/phases.json for the next runs (the scale run replaces them)");
  }
  const targets = phaseTargets("the guard's phases", run, stored?.guard);
  for (const [text, met] of targets) console.log(`${met ? "met   " : "MISSED"}  ${text}`);
  if (targets.some(([, met]) => !met)) process.exitCode = 1;
}
