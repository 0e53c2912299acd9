/**
 * `npm run bench -- --guard`: the guard of the import's phases alone (phase-guard.ts), in the time a
 * CI run can afford; exits 1 when a phase is more than 1.5 × slower than the stored figures.
 */
import { log } from "./common.ts";
import { guardImport, phaseRates, phaseTargets, storedPhases } from "./phase-guard.ts";

export async function benchGuard(): Promise<void> {
  const figures = await guardImport();
  const stored = storedPhases();
  log(`  ${figures.seconds.toFixed(1)} s, ${figures.peakMiB} MiB (stored figures of ${stored?.date ?? "no run"})`);
  const now = phaseRates(figures.phases);
  for (const p of now) {
    const before = stored?.guard.find((b) => b.phase === p.phase);
    const was = before === undefined ? "" : ` (stored ${before.cpuSeconds.toFixed(1)} s)`;
    console.log(`${p.cpuSeconds.toFixed(1).padStart(7)} s CPU ${p.seconds.toFixed(1).padStart(7)} s  ${p.phase}${was}`);
  }
  const targets = phaseTargets("the guard's phases", now, stored?.guard);
  for (const [text, met] of targets) console.log(`${met ? "met   " : "MISSED"}  ${text}`);
  if (targets.some(([, met]) => !met)) process.exitCode = 1;
}
