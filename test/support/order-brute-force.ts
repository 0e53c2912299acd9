/**
 * The searches' order (docs/api.md#order) computed by brute force from the source files: every
 * record whose names hold the text, each name matched with plain string operations (suggest-brute-
 * force.ts), ranked by the rule as the docs state it — a record found by one of its own names (a
 * city's name and ASCII name, a venue's shown name, or its only name) before one found only by
 * another, unless that one is at least 31.6 times as large as the largest found by an own name;
 * in each class the best tier of its names there (the name is the text, starts with it, holds its
 * words); then pos. Strict searches (no typos, no place read), without a point.
 */
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { holds, passes, token, type Ask, type Candidate } from "./suggest-brute-force.ts";

/** The best tier among names (each its forms): 0 the name is the text, 1 starts with it, 2 holds its words; null when none does. */
function bestTier(names: readonly (readonly string[])[], text: string): number | null {
  const normalized = normalize(text);
  const t = token(normalized);
  const typed = words(normalized);
  let best: number | null = null;
  for (const forms of names) {
    const tier = forms.some((f) => token(f) === t)
      ? 0
      : forms.some((f) => token(f).startsWith(t))
        ? 1
        : holds(forms, typed)
          ? 2
          : null;
    if (tier !== null && (best === null || tier < best)) best = tier;
  }
  return best;
}

/** A record's own names: a city's first two (name, ASCII name), a venue's shown name (its first). */
const ownOf = (c: Candidate, resource: "venues" | "cities") => c.names.slice(0, resource === "cities" ? 2 : 1);

export interface Ranked {
  id: string;
  pos: number;
  /** 0-2: found by an own name (or promoted), its tier; 3-5: only by another, 3 + its tier. */
  key: number;
  /** Found only by another name, and far larger than every record found by an own name. */
  promoted: boolean;
  /** The best tier of all its names (the order before own names came first: tier, pos). */
  tier: number;
}

/** Every record the text matches, in the searches' order. */
export function searchOrder(records: readonly Candidate[], resource: "venues" | "cities", a: Ask): Ranked[] {
  const found: (Omit<Ranked, "promoted"> & { own: boolean; population: number })[] = [];
  for (const c of records) {
    if (!passes(c, a)) continue;
    const any = bestTier(c.names, a.text);
    if (any === null) continue;
    const own = bestTier(ownOf(c, resource), a.text);
    found.push({ id: c.id, pos: c.pos, key: own ?? 3 + any, tier: any, own: own !== null, population: c.population });
  }
  const first = found.filter((f) => f.own).sort((x, y) => x.pos - y.pos)[0];
  const least = first === undefined ? Infinity : 31.6 * Math.max(1, first.population);
  return found
    .map(({ id, pos, key, tier, population }) => {
      const promoted = key >= 3 && population >= least;
      return { id, pos, key: promoted ? key - 3 : key, promoted, tier };
    })
    .sort((x, y) => x.key - y.key || x.pos - y.pos);
}

/**
 * The records of `all` whose names may hold a text: one of their words starts with its longest
 * word's first three letters, or all of it when shorter (a brute force over 200,000 cities, text
 * by text, would be slow).
 */
export function mayHold(all: readonly Candidate[]): (text: string) => Candidate[] {
  const byStart = new Map<string, number[]>();
  const start = (word: string) => [...word].slice(0, 3).join("");
  const starts = (word: string) => [1, 2, 3].map((n) => [...word].slice(0, n).join(""));
  all.forEach((c, i) => {
    for (const key of new Set(c.names.flat().flatMap((f) => words(f).flatMap(starts)))) {
      const list = byStart.get(key);
      if (list === undefined) byStart.set(key, [i]);
      else list.push(i);
    }
  });
  return (text) => {
    const longest = words(normalize(text)).reduce((a, b) => ([...b].length > [...a].length ? b : a), "");
    return (byStart.get(start(longest)) ?? []).map((i) => all[i] as Candidate);
  };
}
