/**
 * A venue found by another of its names, against the name it shows (docs/benchmarks.md): generated
 * venues named in Cyrillic or Japanese script show their name in Latin letters and keep the local
 * one as another name (scripts/import/generate/romanize.ts), as real venues keep theirs. Every local
 * name the generator makes without a city's name is written out here with its Latin form; the
 * venues of the database that show one are searched by both, and D1's rows_read compared.
 */
import type Database from "better-sqlite3";
import { romanized } from "../import/generate/romanize.ts";
import { cyrillic, japanese, type Vocabulary } from "../import/generate/vocabulary-languages.ts";
import { rowsRead } from "./measure.ts";

export interface AliasFigures {
  /** Venues searched by their shown name and by their local one. */
  venues: number;
  /** Of those, found on page 1 by both names. */
  foundByBoth: number;
  /** rows_read by the local name ÷ by the shown name: median and the largest. */
  medianRatio: number;
  maxRatio: number;
  /** rows_read by the shown name and by the local one, summed over the venues. */
  rowsByName: number;
  rowsByAlias: number;
}

/** Each pattern of a vocabulary without a city or Latin word, filled every way: the local names. */
function localNames(v: Vocabulary): string[] {
  return v.patterns
    .filter((p) => !/\{(city|latin)\}/.test(p))
    .flatMap((pattern) => {
      let names = [pattern];
      for (const [list, words] of Object.entries(v.lists)) {
        if (!pattern.includes(`{${list}}`)) continue;
        names = names.flatMap((n) => words.map((w) => n.replace(`{${list}}`, w)));
      }
      return names;
    });
}

/** Latin form → local name, for the names the generator writes in another script. */
function aliasesOfShownNames(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of [...localNames(cyrillic), ...localNames(japanese)]) {
    const latin = romanized(name);
    if (latin !== null) out.set(latin, name);
  }
  return out;
}

async function search(base: string, name: string): Promise<{ rows: number; ids: string[] }> {
  const res = await fetch(`${base}/1.0/search/venues?name=${encodeURIComponent(name)}`, {
    headers: { Accept: "application/json" },
  });
  const rows = rowsRead(res);
  const body = res.status === 200 ? ((await res.json()) as { venue: { id: string }[] }) : { venue: [] };
  return { rows, ids: body.venue.map((v) => v.id) };
}

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN;

/** Up to `count` venues showing a Latin form, each searched by both names (the local one after the shown one). */
export async function measureAliases(base: string, db: Database.Database, count: number): Promise<AliasFigures> {
  const aliases = aliasesOfShownNames();
  const pick = db.prepare("SELECT id, name FROM venues WHERE name = ? ORDER BY pos LIMIT 2");
  const venues = [...aliases.keys()]
    .flatMap((latin) => pick.all(latin) as { id: string; name: string }[])
    .slice(0, count);
  const ratios: number[] = [];
  let [foundByBoth, rowsByName, rowsByAlias] = [0, 0, 0];
  for (const v of venues) {
    const byName = await search(base, v.name);
    const byAlias = await search(base, aliases.get(v.name) ?? "");
    if (byName.ids.includes(v.id) && byAlias.ids.includes(v.id)) foundByBoth++;
    ratios.push(byAlias.rows / Math.max(byName.rows, 1));
    rowsByName += byName.rows;
    rowsByAlias += byAlias.rows;
  }
  return {
    venues: venues.length,
    foundByBoth,
    medianRatio: median(ratios),
    maxRatio: Math.max(...ratios),
    rowsByName,
    rowsByAlias,
  };
}
