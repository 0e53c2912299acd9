/**
 * Recall and precision of a place in the text (docs/benchmarks.md#a-place-in-the-text), measured
 * through a running worker: each query of a set (place-queries.ts) as a city search, and where the
 * city meant comes — first, not at all (404), or behind another city.
 */
import type { PlaceQuery } from "./place-queries.ts";

export interface PlaceFigures {
  set: "places" | "spellings" | "precision";
  /** How the queries write the place or the name; "all" for the whole set. */
  form: string;
  queries: number;
  countries: number;
  /** The city meant is the first result. */
  first: number;
  /** No result (404). */
  notFound: number;
  /** Another city is first. */
  otherFirst: number;
  /** A few queries that put another city first, for the reader. */
  examples: string[];
}

/** The first city a search answers, or null for a 404. */
async function firstCity(base: string, text: string): Promise<string | null> {
  const res = await fetch(`${base}/1.0/search/cities?name=${encodeURIComponent(text)}`, {
    headers: { Accept: "application/json" },
  });
  if (res.status === 404) return null;
  if (res.status !== 200) throw new Error(`cities ${text}: status ${res.status}`);
  const body = (await res.json()) as { cities: { id: string; name: string }[] };
  return body.cities[0]?.id ?? null;
}

/** Each query's first city, a few requests at a time (the machine has two cores). */
async function answers(base: string, queries: readonly PlaceQuery[]): Promise<(string | null)[]> {
  const out: (string | null)[] = new Array<string | null>(queries.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < queries.length; i = next++) out[i] = await firstCity(base, queries[i]?.text ?? "");
  };
  await Promise.all([worker(), worker(), worker()]);
  return out;
}

function figures(set: PlaceFigures["set"], form: string, list: { q: PlaceQuery; got: string | null }[]): PlaceFigures {
  const other = list.filter((x) => x.got !== null && x.got !== x.q.id);
  return {
    set,
    form,
    queries: list.length,
    countries: new Set(list.map((x) => x.q.country)).size,
    first: list.filter((x) => x.got === x.q.id).length,
    notFound: list.filter((x) => x.got === null).length,
    otherFirst: other.length,
    examples: other.slice(0, 5).map((x) => x.q.text),
  };
}

/** A set's figures: per form, then for the whole set. */
export async function measurePlaceSet(
  base: string,
  set: PlaceFigures["set"],
  queries: readonly PlaceQuery[],
): Promise<PlaceFigures[]> {
  const got = await answers(base, queries);
  const results = queries.map((q, i) => ({ q, got: got[i] ?? null }));
  const forms = [...new Set(queries.map((q) => q.form))];
  return [
    ...forms.map((form) =>
      figures(
        set,
        form,
        results.filter((r) => r.q.form === form),
      ),
    ),
    figures(set, "all", results),
  ];
}
