/**
 * The guard of the import's phases (scripts/bench/phase-guard.ts): a phase more than 1.5 × its
 * stored CPU seconds fails, the stored seconds scaled by the machine's speed then and now.
 */
import { describe, expect, it } from "vitest";
import { calibrate } from "../../scripts/bench/calibrate.ts";
import { phaseTargets, type PhaseRun } from "../../scripts/bench/phase-guard.ts";

const run = (calibrationSeconds: number, generating: number, checking = 0.5): PhaseRun => ({
  calibrationSeconds,
  phases: [
    { phase: "generating venues", seconds: generating, cpuSeconds: generating, rows: 1_000_000 },
    { phase: "checking venue ids and cities", seconds: checking, cpuSeconds: checking, rows: 0 },
  ],
});

const judged = (now: PhaseRun, before: PhaseRun | undefined) => {
  const [target] = phaseTargets("the guard", now, before);
  return target;
};

describe("the guard of the import's phases", () => {
  it("fails a phase more than 1.5 × slower on a machine as fast as before, naming it", () => {
    const [text, met] = judged(run(1, 40), run(1, 20)) ?? [];
    expect(met).toBe(false);
    expect(text).toContain("generating venues 2.00 ×");
  });

  it("passes the same phase on a machine twice as slow by the calibration, and fails a slowdown beyond it", () => {
    expect(judged(run(2, 40), run(1, 20))?.[1]).toBe(true);
    expect(judged(run(2, 80), run(1, 20))?.[1]).toBe(false);
  });

  it("does not judge phases under a second, and passes without stored figures", () => {
    expect(judged(run(1, 20, 0.9), run(1, 20, 0.3))?.[1]).toBe(true);
    expect(judged(run(1, 20), undefined)?.[1]).toBe(true);
  });

  it("names a stored phase this run no longer has without judging it, and still judges the others", () => {
    const making = { phase: "making venues", seconds: 40, cpuSeconds: 40, rows: 1_000_000 };
    const renamed: PhaseRun = { calibrationSeconds: 1, phases: [making] };
    const [text, met] = judged(renamed, run(1, 20)) ?? [];
    expect(met).toBe(true);
    expect(text).toContain("not in this run (renamed or removed): generating venues");
    expect(judged({ ...run(1, 40), phases: [...run(1, 40).phases, making] }, run(1, 20))?.[1]).toBe(false);
  });

  it("times a fixed piece of work in seconds", () => {
    const seconds = calibrate();
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(60);
  });
});
