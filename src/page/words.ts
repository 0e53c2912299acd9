/**
 * A place in words, as people write it: its parts joined by commas, each said once. A city whose
 * state has its name is "Wien, Österreich", not "Wien, Wien, Österreich". Pure.
 */

/** The same word, whatever its case: "Wien" and "wien" (but not "Wien" and "Wïen"). */
const same = (a: string, b: string): boolean => a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;

/**
 * The parts joined by ", ", leaving out the empty ones and each that repeats an earlier one or
 * one of `said` (words already shown beside them, such as the result's own name).
 */
export function placeWords(parts: readonly (string | undefined)[], said: readonly string[] = []): string {
  const kept: string[] = [];
  for (const part of parts) {
    const text = part?.trim();
    if (text && ![...said, ...kept].some((word) => same(word, text))) kept.push(text);
  }
  return kept.join(", ");
}
