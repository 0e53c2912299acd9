/**
 * Typo tolerance (docs/api.md#typo-tolerance) through the worker: each kind of edit, two edits in long words, the
 * last word as a prefix, localized and alternate names, filters and paging, `typos=0`, the
 * X-Match and X-Corrected-Name headers, order by fewest edits, and strict answers unchanged.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import { forgetDataVersion } from "../../src/cache/data-version.ts";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { allPages, getJson, getXml, parseXml } from "./helpers.ts";

async function search<T extends VenuesPage | CitiesPage>(path: string): Promise<{ res: Response; body: T }> {
  const res = await getJson(path);
  expect(res.status, path).toBe(200);
  return { res, body: (await res.json()) as T };
}

const cityNames = async (query: string) =>
  ((await search<CitiesPage>(`/1.0/search/cities?${query}`)).body.cities ?? []).map((c) => c.name);
const venueNames = async (query: string) =>
  ((await search<VenuesPage>(`/1.0/search/venues?${query}`)).body.venue ?? []).map((v) => v.name);

/**
 * Edit distance with swaps of neighbours (optimal string alignment), written out plainly here
 * so the worker's own implementation is not what checks it.
 */
function osa(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  const d = s.map(() => t.map(() => 0));
  const at = (i: number, j: number): number => (i < 0 ? j + 1 : j < 0 ? i + 1 : (d[i]?.[j] ?? 0));
  s.forEach((x, i) =>
    t.forEach((y, j) => {
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (x === y ? 0 : 1));
      if (i > 0 && j > 0 && x === t[j - 1] && s[i - 1] === y) v = Math.min(v, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = v;
    }),
  );
  return at(s.length - 1, t.length - 1);
}

/** The fewest edits that turn a one-word query into a word of a name, the last word as a prefix. */
function editsTo(query: string, name: string): number {
  return Math.min(
    ...normalize(name)
      .split(" ")
      .flatMap((w) => [osa(query, w), ...Array.from(w, (_, i) => osa(query, w.slice(0, i + 1)))]),
  );
}

describe("typos: each kind of edit, inside a word", () => {
  it.each([
    ["deleted", "brlin"],
    ["inserted", "berrlin"],
    ["substituted", "bezlin"],
    ["swapped", "belrin"],
  ])("a letter %s: %s finds Berlin first", async (_kind, typo) => {
    const { res, body } = await search<CitiesPage>(`/1.0/search/cities?name=${typo}`);
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    expect(decodeURIComponent(res.headers.get("X-Corrected-Name") ?? "")).toBe("berlin");
    expect(body.cities[0]?.name).toBe("Berlin");
    expect(body.total).toBe(body.cities.length);
  });

  it.each([
    ["deleted", "stadhalle"],
    ["inserted", "stadthhalle"],
    ["substituted", "stadtjalle"],
    ["swapped", "stadthlale"],
  ])("a letter %s in a venue name: %s finds the Stadthalle venues", async (_kind, typo) => {
    const names = await venueNames(`name=${typo}`);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => normalize(n).includes("stadthalle"))).toBe(true);
  });

  it("two edits in a word of 8 or more letters, one in a word of 4 to 7, none below", async () => {
    expect(await venueNames("name=stodthelle")).toContain("Stadthalle"); // 2 substitutions, 10 letters
    expect((await getJson("/1.0/search/cities?name=brrlni")).status).toBe(404); // berlin: 2 edits, 6 letters
    expect((await getJson("/1.0/search/cities?name=prs")).status).toBe(404); // pars, paris: 3 letters are exact
  });

  it("keeps the last word a prefix, corrected or not", async () => {
    expect(await venueNames("name=filmore%20aud")).toEqual(["The Fillmore Auditorium"]);
    const berlin = await cityNames("name=berln");
    expect(berlin[0]).toBe("Berlin");
  });

  it("corrects several words of one query at once", async () => {
    const { res, body } = await search<VenuesPage>("/1.0/search/venues?name=filmore%20auditorim");
    expect(body.venue.map((v) => v.name)).toEqual(["The Fillmore Auditorium"]);
    expect(decodeURIComponent(res.headers.get("X-Corrected-Name") ?? "")).toBe("fillmore auditorium");
  });

  it("forgives localized and alternate names like the main name", async () => {
    expect(await cityNames("name=wiedn")).toContain("Vienna"); // Wiedeń, Polish
    expect(await cityNames("name=munchn")).toContain("Munich"); // München
    expect(await cityNames("name=wein")).toContain("Vienna"); // Wien, swapped
  });
});

describe("typos: the order and the rest of the search", () => {
  it("orders by fewest edits, then as a strict search, over every page", async () => {
    const { total, items } = await allPages<{ name: string }>("/1.0/search/venues?name=stadthale", "venue");
    expect(items).toHaveLength(total);
    expect(new Set(items.map((v) => v.name + JSON.stringify(v))).size).toBe(items.length);
    const edits = items.map((v) => editsTo("stadthale", v.name));
    expect(edits.every((e) => e >= 1 && e <= 1)).toBe(true); // 9 letters: 2 allowed, 1 is the best here
    expect(edits).toEqual([...edits].sort((a, b) => a - b));
  });

  it.each([
    ["clbu", null], // club: a broad word
    ["clbu", "US"],
    ["apena", null], // arena, broad, and pena, not
    ["roxm", null], // room, broad, and roxy, not
    ["roxm", "GB"],
    ["rolm", null], // room and roll, both broad
  ])(
    "a correction that may be a broad word (a stored total), %s in %s: the total counts every record of the readings",
    async (typo, country) => {
      const path = `/1.0/search/venues?name=${typo}${country === null ? "" : `&country=${country}`}`;
      const { res, body } = await search<VenuesPage>(path);
      expect(res.headers.get("X-Match")).toBe("fuzzy");
      // The oracle, from the venue rows: the words of venue names within one edit of the typo are the
      // readings (the fixture has fewer than the cap of them), and every venue with a word starting with
      // one of them counts.
      const { results } = await env.DB.prepare(
        "SELECT name, country_code FROM venues WHERE ?1 IS NULL OR country_code = ?1",
      )
        .bind(country)
        .all<{ name: string; country_code: string }>();
      const wordsOf = (name: string) => normalize(name).split(" ");
      const vocabulary = new Set(
        (await env.DB.prepare("SELECT name FROM venues").all<{ name: string }>()).results.flatMap((r) =>
          wordsOf(r.name),
        ),
      );
      const corrections = [...vocabulary].filter((w) => w !== typo && w.length >= 3 && osa(typo, w) <= 1);
      const expected = results.filter((v) => wordsOf(v.name).some((w) => corrections.some((c) => w.startsWith(c))));
      expect(corrections.length).toBeGreaterThan(0);
      expect(body.total).toBe(expected.length);
      const { total, items } = await allPages<{ id: string }>(path, "venue");
      expect(total).toBe(expected.length);
      expect(new Set(items.map((v) => v.id)).size).toBe(items.length);
    },
  );

  it("combines with filters", async () => {
    const german = await search<CitiesPage>("/1.0/search/cities?name=berln&country=DE");
    expect(german.body.cities.map((c) => c.country.code)).toEqual(german.body.cities.map(() => "DE"));
    expect(german.body.cities[0]?.name).toBe("Berlin");
    expect((await getJson("/1.0/search/cities?name=berln&country=JP")).status).toBe(404);
  });
});

describe("typos: filters that hold no record", () => {
  it("skips the fallback's round trips where the filters hold no record, the answer the same", async () => {
    // The answer's own round trips: the version the isolate remembers lasts 5 s, and reading it
    // again is a trip of its own (src/cache/data-version.ts), so each request reads it afresh
    // and its one trip is taken off.
    const trips = (res: Response) => Number(/round_trips=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1]) - 1;
    const getFresh = (path: string) => {
      forgetDataVersion();
      return getJson(path);
    };
    const held = await getFresh("/1.0/search/cities?name=berln&stateCode=16");
    expect(held.status).toBe(200);
    expect(held.headers.get("X-Match")).toBe("fuzzy");
    expect(trips(held)).toBe(2); // the first trip read whether the filters hold a record too
    for (const filters of [
      "stateCode=QQ",
      "country=DE&stateCode=QQ",
      "country=DE&state=Texas",
      "country=DE&lat=-50&long=-30&radius=500",
      "bbox=-30,-50,-29.9,-49.9",
    ]) {
      const none = await getFresh(`/1.0/search/cities?name=berln&${filters}`);
      expect(none.status, filters).toBe(404);
      expect(trips(none), filters).toBe(1);
    }
    const suggested = await getFresh("/1.0/suggest/venues?name=clbu%20berln&country=DE&stateCode=QQ");
    expect(suggested.status).toBe(200);
    expect(((await suggested.json()) as VenuesPage).venue).toEqual([]);
    expect(trips(suggested)).toBe(2); // the suggestions, the search's first trip
  });
});

describe("typos: a query of several words", () => {
  it.each([
    "musik%20hall",
    "engin%20roon",
    "socail%20clbu",
    "memorail%20stadim",
    "bart%20roam",
    "rokc%20rol",
    "haal%20parc",
    "tavren%20barn",
  ])(
    "a query of two words, %s: the total counts every record in which each word reads as one of its alternatives",
    async (typo) => {
      const path = `/1.0/search/venues?name=${typo}`;
      const { res, body } = await search<VenuesPage>(path);
      expect(res.headers.get("X-Match")).toBe("fuzzy");
      // The oracle, from the venue rows: a query word reads as itself when some name has a word
      // starting with it, and as any word of 3+ letters of the names within its allowed edits; a
      // venue counts when each query word's reading starts one of its name's words.
      const { results } = await env.DB.prepare("SELECT name FROM venues").all<{ name: string }>();
      const names = results.map((r) => normalize(r.name).split(" "));
      const vocabulary = [...new Set(names.flat())];
      const allowed = (w: string) => (w.length < 4 ? 0 : w.length < 8 ? 1 : 2);
      const readingsOf = (q: string) => [
        ...(names.some((n) => n.some((w) => w.startsWith(q))) ? [q] : []),
        ...vocabulary.filter((w) => w !== q && w.length >= 3 && osa(q, w) <= allowed(q)),
      ];
      const perWord = normalize(decodeURIComponent(typo)).split(" ").map(readingsOf);
      expect(perWord.every((list) => list.length <= 24)).toBe(true);
      const expected = names.filter((n) => perWord.every((list) => list.some((r) => n.some((w) => w.startsWith(r)))));
      expect(body.total).toBe(expected.length);
      const { total, items } = await allPages<{ id: string }>(path, "venue");
      expect(total).toBe(expected.length);
      expect(new Set(items.map((v) => v.id)).size).toBe(items.length);
    },
  );
});

describe("typos: the order and the rest of the search", () => {
  it("is off with typos=0, and strict answers are the same either way", async () => {
    const off = await getJson("/1.0/search/cities?name=berln&typos=0");
    expect(off.status).toBe(404);
    expect(off.headers.get("X-Match")).toBeNull();
    for (const [resource, q] of [
      ["cities", "name=berlin"],
      ["cities", "name=frankfurt%20am"],
      ["venues", "name=stadthalle"],
      ["venues", "name=fill%20aud"],
    ]) {
      const on = await getJson(`/1.0/search/${resource}?${q}`);
      const strict = await getJson(`/1.0/search/${resource}?${q}&typos=0`);
      expect(on.status, q).toBe(200);
      expect(strict.status, q).toBe(200);
      expect(await on.text()).toBe(await strict.text());
      expect(on.headers.get("X-Match")).toBe("exact");
    }
  });

  it("answers in XML too, with the headers", async () => {
    const res = await getXml("/1.0/search/cities?name=belrin");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    const { root } = parseXml(await res.text());
    expect(root.children[0]?.attributes.name).toBe("Berlin");
  });

  it("caches fuzzy answers with their headers", async () => {
    const path = "/1.0/search/venues?name=filmore";
    const first = await getJson(path);
    expect(first.headers.get("X-Match")).toBe("fuzzy");
    let hit: Response | undefined;
    for (let i = 0; i < 50 && hit === undefined; i++) {
      const res = await getJson(path);
      if (res.headers.get("X-Cache") === "HIT") hit = res;
      else await res.arrayBuffer();
    }
    expect(hit?.headers.get("X-Match")).toBe("fuzzy");
    expect(hit?.headers.get("X-Corrected-Name")).toBe(first.headers.get("X-Corrected-Name"));
  });

  it("reads only a little of the database: candidates from the vocabulary index", async () => {
    const row = await env.DB.prepare("SELECT count(*) AS n FROM words").first<{ n: number }>();
    const res = await getJson("/1.0/search/cities?name=zurihc");
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    const rowsRead = Number(/rows_read=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1]);
    expect(rowsRead).toBeGreaterThan(0);
    expect(rowsRead).toBeLessThan((row?.n ?? 0) / 4); // not a scan of the vocabulary
  });
});
