/**
 * A full garbage collection, now. V8 collects when JavaScript allocates, and the SQL phases after
 * the venues are placed allocate almost none: the placing's garbage (the sweep's bands of cities,
 * 150 MB at 5M cities) stayed in the heap through them, and the phases after grew it further
 * (V8 keeps a heap's pages resident once it has them: docs/import.md#memory). Node
 * exposes gc() only under --expose-gc; the flag can be set while running and gc() taken from a new
 * context (as Jest's leak detector does), whatever command started the import.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}
