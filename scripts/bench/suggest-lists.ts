/**
 * What people see around the first suggestion (issue "Suggestions a person can trust"): every
 * prefix from 2 letters of the benchmark's 500 most populous target cities' names, suggested at
 * limits 8 and 20, read as a person reads the list:
 *
 * - from one name: each city suggested holds every word typed in ONE of its names (as GeoNames'
 *   file gives them: name, ASCII name, alternate names, and the localized names), the last word as
 *   a prefix — or the words before the last do, and the last is a place it is in (`sao pa`: São
 *   Paulo's towns in Pará; the places a form stands for read from the served place_names); answers
 *   marked `X-Match: fuzzy` (typos forgiven) are counted apart;
 * - the same list at limits 8 and 20: the first 8 of `limit=20` are `limit=8`'s.
 */
import { readFileSync } from "node:fs";
import type Database from "better-sqlite3";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { nameForms } from "../../src/data-contract/spellings.ts";
import { defaultSources } from "../import/sources/resolve.ts";
import type { Target } from "./suggest-letters.ts";

export interface ListFigures {
  texts: number;
  /** Suggestions listed (limit 20) in answers not marked fuzzy, and those holding the words in one name. */
  suggestions: number;
  fromOneName: number;
  /** Texts whose answer forgave typos. */
  fuzzy: number;
  /** Texts whose first 8 at limit 20 are the list at limit 8. */
  sameAtLimits: number;
  /** A few of each, for the reader: `text → city`, and texts. */
  strays: string[];
  reshuffled: string[];
}

/** Every prefix from 2 letters of the targets' typed names. */
export function prefixTexts(targets: readonly Target[]): string[] {
  const texts = new Set<string>();
  for (const t of targets) {
    for (let k = 2; k <= t.typed.length; k++) {
      const text = t.typed.slice(0, k);
      if (!text.endsWith(" ")) texts.add(text);
    }
  }
  return [...texts];
}

interface Answer {
  text: string;
  ids8: string[];
  ids20: string[];
  fuzzy: boolean;
}

/** Each city's names' forms, read from GeoNames' file and the localized names, for the ids asked. */
function namesOf(ids: ReadonlySet<string>): Map<string, string[][]> {
  const s = defaultSources();
  const names = new Map<string, string[]>();
  for (const line of readFileSync(s.cities, "utf8").split("\n")) {
    const tab = line.indexOf("\t");
    const id = line.slice(0, tab);
    if (!ids.has(id)) continue;
    const f = line.split("\t");
    names.set(id, [f[1] ?? "", f[2] ?? "", ...(f[3] ?? "").split(",").filter((n) => n !== "")]);
  }
  for (const line of readFileSync(s.localized, "utf8").split("\n")) {
    const [, key, name] = line.split("\t");
    const list = key === undefined ? undefined : names.get(key);
    if (list !== undefined && name !== undefined) list.push(name);
  }
  return new Map([...names].map(([id, list]) => [id, list.map(nameForms)]));
}

/** Whether one name (its forms) holds every word typed, each as the start of one of its words. */
const holds = (forms: readonly string[], typed: readonly string[]) => {
  const own = forms.flatMap(words);
  return typed.every((w) => own.some((o) => o.startsWith(w)));
};

/** The likeliest two places a form stands for (as place_names ranks them), and each city's region. */
function placesOf(db: Database.Database) {
  const forms = db.prepare("SELECT country_code, admin1_code FROM place_names WHERE form = ? ORDER BY rank LIMIT 2");
  const city = db.prepare("SELECT country_code, coalesce(admin1_code, '') AS admin1_code FROM cities WHERE id = ?");
  return (form: string, id: string): boolean => {
    const at = city.get(id) as { country_code: string; admin1_code: string } | undefined;
    const places = forms.all(form) as { country_code: string; admin1_code: string }[];
    return places.some(
      (p) => p.country_code === at?.country_code && (p.admin1_code === "" || p.admin1_code === at.admin1_code),
    );
  };
}

function figuresOf(answers: readonly Answer[], db: Database.Database): ListFigures {
  const ids = new Set(answers.flatMap((a) => a.ids20));
  const names = namesOf(ids);
  const inPlace = placesOf(db);
  const f: ListFigures = {
    texts: answers.length,
    suggestions: 0,
    fromOneName: 0,
    fuzzy: 0,
    sameAtLimits: 0,
    strays: [],
    reshuffled: [],
  };
  for (const a of answers) {
    if (a.ids20.slice(0, 8).join() === a.ids8.join()) f.sameAtLimits++;
    else if (f.reshuffled.length < 10) f.reshuffled.push(a.text);
    if (a.fuzzy) {
      f.fuzzy++;
      continue;
    }
    const typed = words(normalize(a.text));
    const [before, last] = [typed.slice(0, -1), typed.at(-1) ?? ""];
    for (const id of a.ids20) {
      f.suggestions++;
      const own = names.get(id) ?? [];
      const placed = before.length > 0 && inPlace(last, id) && own.some((forms) => holds(forms, before));
      if (placed || own.some((forms) => holds(forms, typed))) f.fromOneName++;
      else if (f.strays.length < 10) f.strays.push(`${a.text} → ${id}`);
    }
  }
  return f;
}

/** The lists of the texts at limits 8 and 20, from a worker. */
export async function listFigures(base: string, texts: readonly string[], db: Database.Database): Promise<ListFigures> {
  const answers: Answer[] = [];
  for (const text of texts) {
    const ask = async (limit: number) => {
      const res = await fetch(`${base}/1.0/suggest/cities?name=${encodeURIComponent(text)}&limit=${limit}`, {
        headers: { Accept: "application/json" },
      });
      const body = (await res.json()) as { cities?: { id: string }[] };
      return { ids: (body.cities ?? []).map((c) => c.id), fuzzy: res.headers.get("X-Match") === "fuzzy" };
    };
    const [eight, twenty] = [await ask(8), await ask(20)];
    answers.push({ text, ids8: eight.ids, ids20: twenty.ids, fuzzy: twenty.fuzzy });
  }
  return figuresOf(answers, db);
}
