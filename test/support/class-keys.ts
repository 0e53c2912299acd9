/**
 * The order of a name search by the rule of docs/api.md#order, from the search index's own answers
 * (FTS5 lookups of each tier: which records match is not what these tests test): a record found by
 * one of its own names (a city's own name tokens and words: src/data-contract/tokens.ts; a venue's
 * the same, or any of its names when it has one, without `__x`) before one found only by another,
 * unless 31.6 times as large as the largest found by an own name; in each class its best tier.
 */
import type { Language } from "../../src/data-contract/languages.ts";
import { ASCII_WORDS, localizedNameToken, mainNameToken, ownWords } from "../../src/data-contract/tokens.ts";

export type Match = (text: string) => Promise<ReadonlySet<number>> | ReadonlySet<number>;

/** Per record: its best tier by its own names (null: none holds the words), and by any. */
export interface NameTiers {
  own(pos: number): number | null;
  any(pos: number): number;
}

const tierOf = (x: ReadonlySet<number>, s: ReadonlySet<number>, w: ReadonlySet<number>) => (pos: number) =>
  x.has(pos) ? 0 : s.has(pos) ? 1 : w.has(pos) ? 2 : null;

/**
 * The tiers of a text's words (normalized, no two sharing a start) in the records of `resource`,
 * their own names those of English and of `language` (its localized names too).
 */
export async function nameTiers(
  match: Match,
  resource: "cities" | "venues",
  words: readonly string[],
  language: Language = "en",
): Promise<NameTiers> {
  const token = `_${words.join("_")}`;
  const all = (scope: string) => words.map((w) => `"${scope}${w}"*`).join(" AND ");
  const alone = (text: string) => (resource === "venues" ? ` OR ((${text}) NOT "__x")` : "");
  const text = words.join(" ");
  const names = [mainNameToken(text), ...(language === "en" ? [] : [localizedNameToken(language, text)])].map(
    (t) => `"${t}"`,
  );
  const scopes = [
    ownWords("en"),
    ...(resource === "cities" ? [ASCII_WORDS] : []),
    ...(language === "en" ? [] : [ownWords(language)]),
  ];
  const ownWordsText = scopes.map((scope) => `(${words.map((w) => `"${scope.word(w)}"*`).join(" AND ")})`).join(" OR ");
  const own = tierOf(
    await match(`(${names.join(" OR ")})${alone(`"${token}"`)}`),
    await match(`(${names.map((n) => `${n}*`).join(" OR ")})${alone(`"${token}"*`)}`),
    await match(`(${ownWordsText})${alone(all(""))}`),
  );
  const any = tierOf(await match(`"${token}"`), await match(`"${token}"*`), await match(all("")));
  return { own, any: (pos) => any(pos) ?? 2 };
}

/**
 * The key of each record of a search's matches (`found`, in any order): 0–2 found by an own name
 * (or far larger than the first that is), its tier; 3–5 only by another, 3 + its tier.
 */
export function classKeys(
  found: readonly number[],
  tiers: NameTiers,
  population: (pos: number) => number,
): (pos: number) => number {
  const firstOwn = [...found].sort((a, b) => a - b).find((pos) => tiers.own(pos) !== null);
  const least = firstOwn === undefined ? Infinity : 31.6 * Math.max(1, population(firstOwn));
  return (pos) => {
    const own = tiers.own(pos);
    if (own !== null) return own;
    return population(pos) >= least ? tiers.any(pos) : 3 + tiers.any(pos);
  };
}
