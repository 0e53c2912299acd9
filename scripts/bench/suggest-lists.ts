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
 * - the same list at limits 8 and 20: the first 8 of `limit=20` are `limit=8`'s;
 * - each typed word its own word (issue 55): "one name holds the words" counts a word of the name
 *   once, and the texts whose list (limit 20) holds a city that only a word read twice would hold
 *   are counted (`al basrah al` → Basrah);
 * - why each is there (issue 55): of the cities a person sees (limit 8), those whose shown name does
 *   not hold the words (matched by another name), and of those, the ones whose `matched.name` is a
 *   name of the city, other than the shown one, that holds them.
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
  /** Texts (not fuzzy) whose list holds a city that only a word read twice holds. */
  readTwice: number;
  /** Suggestions at limit 8 (not fuzzy), those matched by a name not shown, and of those the ones whose `matched.name` is that name. */
  seen: number;
  notShown: number;
  named: number;
  /** A few texts of each, for the reader: `text → city`. */
  twice: string[];
  unnamed: string[];
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

interface Suggested {
  id: string;
  name: string;
  matched?: { name?: string };
}

interface Answer {
  text: string;
  list8: Suggested[];
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

/** Whether typed words start words of a name's word list, each its own (tried every way). */
function eachOwnWord(name: readonly string[], typed: readonly string[], taken: readonly number[] = []): boolean {
  const [first, ...rest] = typed;
  if (first === undefined) return true;
  return name.some((w, i) => !taken.includes(i) && w.startsWith(first) && eachOwnWord(name, rest, [...taken, i]));
}

/** Whether one name (its forms) holds every word typed, each as the start of one of its words of its own. */
const holds = (forms: readonly string[], typed: readonly string[]) => forms.some((f) => eachOwnWord(words(f), typed));

/** Whether one name holds every word typed only if a word of it may be read twice. */
const twice = (forms: readonly string[], typed: readonly string[]) =>
  !holds(forms, typed) && forms.some((f) => typed.every((w) => words(f).some((o) => o.startsWith(w))));

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

/** Why the cities a person sees (limit 8) are there: matched by a name not shown, and whether `matched` names it. */
function whyFigures(
  f: ListFigures,
  a: Answer,
  names: ReadonlyMap<string, string[][]>,
  placed: (id: string) => boolean,
) {
  const typed = words(normalize(a.text));
  for (const s of a.list8) {
    f.seen++;
    const forms = names.get(s.id) ?? [];
    if (placed(s.id) || holds(forms[0] ?? [], typed)) continue;
    f.notShown++;
    const by = s.matched?.name;
    if (by !== undefined && by !== s.name && holds(nameForms(by), typed)) f.named++;
    else if (f.unnamed.length < 10) f.unnamed.push(`${a.text} → ${s.name}${by === undefined ? "" : ` (${by})`}`);
  }
}

/** One answer's lists: from one name, words read twice, the same at both limits. */
function answerFigures(
  f: ListFigures,
  a: Answer,
  names: ReadonlyMap<string, string[][]>,
  inPlace: ReturnType<typeof placesOf>,
) {
  if (a.ids20.slice(0, 8).join() === a.list8.map((s) => s.id).join()) f.sameAtLimits++;
  else if (f.reshuffled.length < 10) f.reshuffled.push(a.text);
  if (a.fuzzy) {
    f.fuzzy++;
    return;
  }
  const typed = words(normalize(a.text));
  const [before, last] = [typed.slice(0, -1), typed.at(-1) ?? ""];
  const placed = (id: string) =>
    before.length > 0 && inPlace(last, id) && (names.get(id) ?? []).some((forms) => holds(forms, before));
  let reread = false;
  for (const id of a.ids20) {
    f.suggestions++;
    const own = names.get(id) ?? [];
    if (placed(id) || own.some((forms) => holds(forms, typed))) f.fromOneName++;
    else if (f.strays.length < 10) f.strays.push(`${a.text} → ${id}`);
    if (!placed(id) && !own.some((forms) => holds(forms, typed)) && own.some((forms) => twice(forms, typed)))
      reread = true;
  }
  if (reread) {
    f.readTwice++;
    if (f.twice.length < 10) f.twice.push(a.text);
  }
  whyFigures(f, a, names, placed);
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
    readTwice: 0,
    seen: 0,
    notShown: 0,
    named: 0,
    strays: [],
    reshuffled: [],
    twice: [],
    unnamed: [],
  };
  for (const a of answers) answerFigures(f, a, names, inPlace);
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
      const body = (await res.json()) as { cities?: Suggested[] };
      return { list: body.cities ?? [], fuzzy: res.headers.get("X-Match") === "fuzzy" };
    };
    const [eight, twenty] = [await ask(8), await ask(20)];
    answers.push({ text, list8: eight.list, ids20: twenty.list.map((c) => c.id), fuzzy: twenty.fuzzy });
  }
  return figuresOf(answers, db);
}
