/**
 * Letters to the first place (issue "As you type"): a name typed one letter at a time into the
 * suggestions, counting the letters until the record is the first suggestion, against an oracle —
 * the fewest letters after which the record is the one the oracle's order puts first among those
 * whose name starts with what was typed:
 *
 * - cities: the 500 most populous of the served cities and 300 drawn (seeded) from those of 15,000
 *   people or more, leaving out names a bigger city shares; typed as their ASCII name in lower case;
 *   the oracle's order is population, over the names and ASCII names, a name typed whole counting
 *   as EXACT_BONUS more (docs/api.md#suggestions: `harar` is Harar, unless a far bigger city
 *   starts so); a target the oracle never puts first (a far bigger city starts with its whole
 *   name) is left out;
 * - venues: drawn (seeded) from the served venues, typed as their shown name normalized; the
 *   oracle's order is the likelihood order (src/suggest/likelihood.ts: the city's population and
 *   the kind), over the shown names.
 */
import type Database from "better-sqlite3";
import { normalize } from "../../src/data-contract/normalize.ts";
import { random } from "../tools/random.ts";
import { raw } from "../../src/sql/sql.ts";
import { EXACT_BONUS, venueScore } from "../../src/suggest/likelihood.ts";

export interface Target {
  pos: number;
  /** What is typed, letter by letter. */
  typed: string;
  label: string;
}

/**
 * A record the oracle orders: its normalized names, and its place in the oracle's order (smaller
 * first); a city's population, when a name typed whole counts more.
 */
interface Ranked {
  pos: number;
  names: string[];
  rank: number;
  population?: number;
}

/** The oracle's key of a record for a prefix (smaller first): its rank, or a city's population with the bonus of its whole name. */
function oracleKey(r: Ranked, prefix: string): number {
  if (r.population === undefined) return r.rank;
  const whole = r.names.includes(prefix) ? EXACT_BONUS : 0;
  return -(Math.log10(r.population + 10) + whole);
}

export interface LettersFigures {
  resource: "venues" | "cities";
  targets: number;
  meanLetters: number;
  meanOracle: number;
  withinOracleAndOne: number;
  neverFirst: number;
  /** The targets never first, for the reader: `typed (label)`. */
  never: string[];
}

/** Whether the oracle puts `a` before `b` for a prefix. */
function before(a: Ranked, b: Ranked, prefix: string): boolean {
  const [ka, kb] = [oracleKey(a, prefix), oracleKey(b, prefix)];
  return ka < kb || (ka === kb && a.rank < b.rank);
}

/** The oracle: the fewest letters after which `target` is the first of the records whose names start with them. */
function oracleLetters(sorted: readonly { name: string; r: Ranked }[], target: Target): number | null {
  for (let k = 1; k <= target.typed.length; k++) {
    const prefix = normalize(target.typed.slice(0, k));
    if (prefix === "") continue;
    let best: Ranked | null = null;
    for (let i = lowerBound(sorted, prefix); i < sorted.length && (sorted[i]?.name ?? "").startsWith(prefix); i++) {
      const r = sorted[i]?.r;
      if (r !== undefined && (best === null || before(r, best, prefix))) best = r;
    }
    if (best?.pos === target.pos) return k;
  }
  return null;
}

function lowerBound(sorted: readonly { name: string }[], key: string): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid]?.name ?? "") < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every name of every record, sorted, for the oracle's prefix ranges. */
const byName = (records: readonly Ranked[]) =>
  records.flatMap((r) => [...new Set(r.names)].map((name) => ({ name, r }))).sort((a, b) => (a.name < b.name ? -1 : 1));

/** The letters until the target is the first suggestion of `suggest`; null when it never is. */
async function typedLetters(
  suggest: (typed: string) => Promise<number | undefined>,
  target: Target,
): Promise<number | null> {
  for (let k = 1; k <= target.typed.length; k++) {
    if (target.typed[k - 1] === " ") continue; // a space alone asks nothing new
    if ((await suggest(target.typed.slice(0, k))) === target.pos) return k;
  }
  return null;
}

export async function lettersFigures(
  resource: "venues" | "cities",
  records: readonly Ranked[],
  targets: readonly Target[],
  suggest: (typed: string) => Promise<number | undefined>,
): Promise<LettersFigures> {
  const sorted = byName(records);
  let [ours, oracle, within, counted] = [0, 0, 0, 0];
  const never: string[] = [];
  for (const t of targets) {
    const best = oracleLetters(sorted, t);
    if (best === null) continue; // the oracle itself cannot tell it apart
    const got = await typedLetters(suggest, t);
    counted++;
    oracle += best;
    if (got === null) {
      never.push(`${t.typed} (${t.label})`);
      ours += t.typed.length;
      continue;
    }
    ours += got;
    if (got <= best + 1) within++;
  }
  return {
    resource,
    targets: counted,
    meanLetters: ours / Math.max(counted, 1),
    meanOracle: oracle / Math.max(counted, 1),
    withinOracleAndOne: within / Math.max(counted, 1),
    neverFirst: never.length,
    never,
  };
}

export interface Measured {
  records: Ranked[];
  targets: Target[];
  /** A record's pos by its id (what the API answers with). */
  ids: Map<string, number>;
}

/** The served cities the oracle ranks (by population: pos), and the targets of the benchmark. */
export function cityTargets(db: Database.Database, seed: string): Measured {
  const rows = db
    .prepare("SELECT pos, id, name, name_norm, ascii_norm, population, country_code FROM cities ORDER BY pos")
    .all() as {
    pos: number;
    id: string;
    name: string;
    name_norm: string;
    ascii_norm: string | null;
    population: number;
    country_code: string;
  }[];
  const records = rows.map((r) => ({
    pos: r.pos,
    names: [r.name_norm, r.ascii_norm ?? r.name_norm],
    rank: r.pos,
    population: r.population,
  }));
  const seen = new Set<string>();
  const unshared = rows.filter((r) => {
    const names = [r.name_norm, r.ascii_norm ?? r.name_norm];
    const shared = names.some((n) => seen.has(n));
    for (const n of names) seen.add(n);
    return !shared;
  });
  const top = unshared.slice(0, 500);
  const rest = unshared.slice(500).filter((r) => r.population >= 15_000);
  const rng = random(seed);
  const drawn = new Set<number>();
  while (drawn.size < Math.min(300, rest.length)) drawn.add(Math.floor(rng() * rest.length));
  const target = (r: (typeof rows)[number]): Target => ({
    pos: r.pos,
    typed: (r.ascii_norm ?? r.name_norm).toLowerCase(),
    label: `${r.name}, ${r.country_code}`,
  });
  const targets = [...top, ...[...drawn].map((i) => rest[i] as (typeof rows)[number])].map(target);
  return { records, targets, ids: new Map(rows.map((r) => [r.id, r.pos])) };
}

/** The served venues the oracle ranks (the likelihood order), and 300 of them drawn as targets. */
export function venueTargets(db: Database.Database, seed: string): Measured {
  const score = venueScore(undefined, raw("NULL"));
  const rows = db
    .prepare(
      `SELECT v.pos, v.id, v.name, (${score.text}) AS score
       FROM (SELECT pos, id, name, kind, city_pos, 0 AS cls FROM venues) v LEFT JOIN cities c ON c.pos = v.city_pos
       ORDER BY score DESC, v.pos`,
    )
    .all(...score.binds) as { pos: number; id: string; name: string }[];
  const records = rows.map((r, rank) => ({ pos: r.pos, names: [normalize(r.name)], rank }));
  const rng = random(seed);
  const drawn = new Set<number>();
  while (drawn.size < Math.min(300, rows.length)) drawn.add(Math.floor(rng() * rows.length));
  const targets = [...drawn].map((i) => {
    const r = rows[i] as (typeof rows)[number];
    return { pos: r.pos, typed: normalize(r.name), label: r.name };
  });
  return { records, targets, ids: new Map(rows.map((r) => [r.id, r.pos])) };
}
