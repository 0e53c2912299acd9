/**
 * Recall of the typo fallback (docs/api.md#typo-tolerance), measured through a running worker: names drawn from
 * the GeoNames dump (cities over 15,000 people) and from the generated venues, each given a typo —
 * one edit of each kind (a letter inserted, deleted, substituted, two neighbours swapped) inside a
 * word, never its first or last letter — and two edits in a word of 8+ letters. Counted: the
 * intended record on page 1, and first.
 *
 * Which records are fair samples: one that its own correct name does not find on page 1 (a
 * "Blue Room" in a small town, behind a hundred bigger namesakes) cannot be found with a typo
 * either, whatever the fallback does; such records are counted apart, so the figures measure
 * typo tolerance, not name ambiguity. Both are reported. Likewise "first" is also counted among the
 * records that their correct name puts first, and the misses whose typo spells another name (which
 * the strict search answers, as docs/api.md#typo-tolerance requires) are counted apart.
 */
import type Database from "better-sqlite3";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { random, type Rng } from "../tools/random.ts";
import { readLines } from "../import/sources/lines.ts";

type EditKind = "insert" | "delete" | "substitute" | "swap";
const EDIT_KINDS: readonly EditKind[] = ["insert", "delete", "substitute", "swap"];

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One edit of `kind` at a random inner position of the word (never its first or last letter). */
function edit(word: string, kind: EditKind, rng: Rng): string | null {
  const s = Array.from(word);
  // Inner positions: 1 .. length-2 (for a swap, the pair i, i+1 stays inside).
  const last = kind === "swap" ? s.length - 3 : kind === "insert" ? s.length - 1 : s.length - 2;
  if (last < 1) return null;
  const i = 1 + Math.floor(rng() * last);
  const letter = () => LETTERS[Math.floor(rng() * LETTERS.length)] ?? "x";
  if (kind === "insert") s.splice(i, 0, letter());
  else if (kind === "delete") s.splice(i, 1);
  else if (kind === "substitute") {
    let l = letter();
    while (l === s[i]) l = letter();
    s[i] = l;
  } else {
    if (s[i] === s[i + 1]) return null; // swapping equal letters changes nothing
    [s[i], s[i + 1]] = [s[i + 1] ?? "", s[i] ?? ""];
  }
  const out = s.join("");
  return out === word ? null : out;
}

/** The name with one word given `edits` (one kind each); null when no word is long enough. */
function misspell(name: string, kinds: readonly EditKind[], minLength: number, rng: Rng): string | null {
  const list = words(normalize(name));
  const candidates = list.map((w, i) => [w, i] as const).filter(([w]) => Array.from(w).length >= minLength);
  if (candidates.length === 0) return null;
  const [word, index] = candidates[Math.floor(rng() * candidates.length)] ?? ["", 0];
  let typo: string | null = word;
  for (const kind of kinds) typo = typo === null ? null : edit(typo, kind, rng);
  if (typo === null || typo === word) return null;
  return list.map((w, i) => (i === index ? typo : w)).join(" ");
}

export interface RecallFigures {
  resource: "cities" | "venues";
  edits: "one of each kind" | "two in a word of 8+ letters";
  /** Queries made (records with a word long enough, and found by their correct name on page 1). */
  queries: number;
  page1: number;
  first: number;
  /**
   * Queries whose record its correct name puts first, and of those, how many the typo puts first
   * too: a smaller namesake ("Kingston" in New York) cannot come first with a typo either.
   */
  firstByName: number;
  firstOfThose: number;
  /** Of those, the typos that spell another name, answered strictly (not the fallback's to put first). */
  strictOfThose: number;
  /** Queries missed because the typo spells (the start of) another name: answered strictly (docs/api.md#typo-tolerance). */
  strictElsewhere: number;
  /** Records drawn that their correct name does not find on page 1 (not counted above). */
  ambiguous: number;
}

interface Sample {
  id: string;
  name: string;
}

/** Cities over `population` people in a GeoNames geoname table, drawn at random (seeded). */
export async function sampleCities(path: string, count: number, seed: string, population = 15_000): Promise<Sample[]> {
  const all: Sample[] = [];
  for await (const [line] of readLines(path)) {
    const cols = line.split("\t");
    if (cols[6] === "P" && Number(cols[14] ?? 0) > population) all.push({ id: cols[0] ?? "", name: cols[1] ?? "" });
  }
  return shuffle(all, random(seed)).slice(0, count);
}

/** Venues of the benchmark database, drawn at random (seeded). */
export function sampleVenues(db: Database.Database, count: number, seed: string): Sample[] {
  const rng = random(seed);
  const max = db.prepare("SELECT max(pos) FROM venues").pluck().get() as number;
  const one = db.prepare("SELECT id, name FROM venues WHERE pos = ?");
  const out: Sample[] = [];
  while (out.length < count) out.push(one.get(1 + Math.floor(rng() * max)) as Sample);
  return out;
}

function shuffle<T>(list: T[], rng: Rng): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/** The ids on page 1 of a search for `name`, and whether the answer was strict. */
async function page1(
  base: string,
  resource: "cities" | "venues",
  name: string,
): Promise<{ ids: string[]; strict: boolean }> {
  const res = await fetch(`${base}/1.0/search/${resource}?name=${encodeURIComponent(name)}`, {
    headers: { Accept: "application/json" },
  });
  if (res.status === 404) return { ids: [], strict: false };
  if (res.status !== 200) throw new Error(`${resource} ${name}: status ${res.status}`);
  const body = (await res.json()) as { cities?: { id: string }[]; venue?: { id: string }[] };
  return { ids: (body.cities ?? body.venue ?? []).map((r) => r.id), strict: res.headers.get("X-Match") === "exact" };
}

export async function measureRecall(
  base: string,
  resource: "cities" | "venues",
  samples: readonly Sample[],
  seed: string,
): Promise<RecallFigures[]> {
  const rng = random(`${seed}:${resource}`);
  const fair: (Sample & { firstByName: boolean })[] = [];
  let ambiguous = 0;
  for (const s of samples) {
    const { ids } = await page1(base, resource, s.name);
    if (ids.includes(s.id)) fair.push({ ...s, firstByName: ids[0] === s.id });
    else ambiguous++;
  }
  const figures = (edits: RecallFigures["edits"]): RecallFigures => ({
    resource,
    edits,
    queries: 0,
    page1: 0,
    first: 0,
    firstByName: 0,
    firstOfThose: 0,
    strictOfThose: 0,
    strictElsewhere: 0,
    ambiguous,
  });
  const one = figures("one of each kind");
  const two = figures("two in a word of 8+ letters");
  const count = async (f: RecallFigures, s: (typeof fair)[number], query: string | null) => {
    if (query === null) return;
    const { ids, strict } = await page1(base, resource, query);
    f.queries++;
    if (ids.includes(s.id)) f.page1++;
    else if (strict) f.strictElsewhere++;
    if (ids[0] === s.id) f.first++;
    if (s.firstByName) {
      f.firstByName++;
      if (ids[0] === s.id) f.firstOfThose++;
      else if (strict && !ids.includes(s.id)) f.strictOfThose++;
    }
  };
  for (const s of fair) {
    for (const kind of EDIT_KINDS) await count(one, s, misspell(s.name, [kind], kind === "delete" ? 5 : 4, rng));
    const kinds = [EDIT_KINDS[Math.floor(rng() * 4)], EDIT_KINDS[Math.floor(rng() * 4)]] as EditKind[];
    // Two edits keep the word at 8 letters or more (a deletion takes one away).
    const longest = 8 + kinds.filter((k) => k === "delete").length;
    await count(two, s, misspell(s.name, kinds, longest, rng));
  }
  return [one, two];
}
