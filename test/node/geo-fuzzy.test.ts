/**
 * The pure parts of §10 against brute force: the grid cells a search reads cover every point of
 * its circle (poles and the antimeridian included), and the deletion neighbourhoods find every
 * word within the allowed edits.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedEdits, indexDeletes, queryDeletes } from "../../src/data-contract/typo-keys.ts";
import { coverTokens } from "../../src/geo/area.ts";
import { EARTH_RADIUS_KM, haversineKm } from "../../src/data-contract/distance.ts";
import { anyPrefixOf } from "../../src/match/fts.ts";
import {
  alternatives,
  bestReading,
  editDistance,
  everyAlternative,
  readings,
  spreads,
  type Alternative,
} from "../../src/query/typos.ts";
import { cellTokens } from "../../src/data-contract/grid.ts";

/** The point `km` away from (lat, lng) along `bearing` (degrees), on the sphere. */
function destination(lat: number, lng: number, bearing: number, km: number): [number, number] {
  const r = Math.PI / 180;
  const d = km / EARTH_RADIUS_KM;
  const lat2 = Math.asin(Math.sin(lat * r) * Math.cos(d) + Math.cos(lat * r) * Math.sin(d) * Math.cos(bearing * r));
  const lng2 =
    lng * r +
    Math.atan2(
      Math.sin(bearing * r) * Math.sin(d) * Math.cos(lat * r),
      Math.cos(d) - Math.sin(lat * r) * Math.sin(lat2),
    );
  const wrapped = ((((lng2 / r + 180) % 360) + 360) % 360) - 180;
  return [lat2 / r, wrapped];
}

describe("geo", () => {
  it("measures known distances", () => {
    expect(haversineKm(51.5074, -0.1278, 48.8566, 2.3522)).toBeCloseTo(343.6, 0); // London–Paris
    expect(haversineKm(0, 179.9, 0, -179.9)).toBeCloseTo(22.2, 1); // across the antimeridian
    expect(haversineKm(90, 0, 90, 123)).toBeCloseTo(0, 9);
  });

  it("covers every point of a circle with the cells it reads", () => {
    const circle = fc.record({
      lat: fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(89.99, -89.99, 0, 85, -85)),
      lng: fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(180, -180, 179.99, -179.99)),
      radiusKm: fc.double({ min: 0.01, max: 500, noNaN: true }),
    });
    fc.assert(
      fc.property(
        circle,
        fc.array(fc.tuple(fc.double({ min: 0, max: 360, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 20,
          maxLength: 20,
        }),
        (c, points) => {
          const cells = new Set(coverTokens(c));
          for (const [bearing, share] of points) {
            const [lat, lng] = destination(c.lat, c.lng, bearing, c.radiusKm * share * 0.999999);
            if (haversineKm(c.lat, c.lng, lat, lng) > c.radiusKm) continue; // rounding at a pole: not inside

            expect(
              cellTokens(lat, lng).some((t) => cells.has(t)),
              `${JSON.stringify(c)} misses ${lat},${lng}`,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("reads few cells: a finer grid for a smaller circle", () => {
    expect(coverTokens({ lat: 51.5, lng: -0.13, radiusKm: 10 }).length).toBeLessThanOrEqual(32);
    expect(coverTokens({ lat: 48.86, lng: 2.35, radiusKm: 100 }).length).toBeLessThanOrEqual(32);
    expect(coverTokens({ lat: 48.86, lng: 2.35, radiusKm: 500 }).length).toBeLessThanOrEqual(32);
    const level = (t: string) => Number(/^__g(\d+)_/.exec(t)?.[1]);
    expect(level(coverTokens({ lat: 51.5, lng: -0.13, radiusKm: 10 })[0] ?? "")).toBeGreaterThan(
      level(coverTokens({ lat: 51.5, lng: -0.13, radiusKm: 500 })[0] ?? ""),
    );
  });
});

/** Every single edit (insert, delete, substitute, swap) of a word, over a small alphabet. */
function edits(word: string, alphabet: string): string[] {
  const out: string[] = [];
  const s = Array.from(word);
  for (let i = 0; i <= s.length; i++) for (const a of alphabet) out.push([...s.slice(0, i), a, ...s.slice(i)].join(""));
  for (let i = 0; i < s.length; i++) {
    out.push([...s.slice(0, i), ...s.slice(i + 1)].join(""));
    for (const a of alphabet) out.push([...s.slice(0, i), a, ...s.slice(i + 1)].join(""));
    if (i + 1 < s.length) out.push([...s.slice(0, i), s[i + 1], s[i], ...s.slice(i + 2)].join(""));
  }
  return out;
}

describe("fuzzy", () => {
  it("allows no edit below 4 letters, one up to 7, two from 8", () => {
    expect([3, 4, 7, 8, 20].map(allowedEdits)).toEqual([0, 1, 1, 2, 2]);
  });

  it("finds every word within the allowed edits through the neighbourhoods (brute force)", () => {
    // é: a letter NFC writes as one unit; 𠀀 (U+20000): a letter of two UTF-16 units.
    const alphabet = "abcé𠀀";
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), minLength: 3, maxLength: 11 }), (word) => {
        const index = new Set(indexDeletes(word).split(" "));
        const once = edits(word, alphabet);
        const twice = word.length >= 6 ? once.slice(0, 40).flatMap((w) => edits(w, alphabet)) : [];
        for (const q of [...once, ...twice]) {
          const k = allowedEdits(Array.from(q).length);
          if (k === 0 || editDistance(q, word, k) > k) continue;
          expect(
            queryDeletes(q).some((key) => index.has(key)),
            `${q} → ${word}`,
          ).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads a query with one word corrected at a time, fewest edits first, never the query itself", () => {
    const list = readings(
      alternatives(
        ["filmore", "aud"],
        [
          { word: "fillmore", records: 10, places: 0 },
          { word: "filmora", records: 50, places: 0 },
          { word: "aude", records: 5, places: 0 },
          { word: "filmore", records: 1, places: 0 },
        ],
      ),
    );
    // One edit each: the more common correction first.
    expect(list.slice(0, 2)).toEqual([
      { words: ["filmora", "aud"], edits: 1 },
      { words: ["fillmore", "aud"], edits: 1 },
    ]);
    expect(list.map((r) => r.edits)).toEqual([...list.map((r) => r.edits)].sort((a, b) => a - b));
    expect(list.some((r) => r.words.join(" ") === "filmore aud")).toBe(false);
    expect(list.some((r) => r.words[1] === "aude")).toBe(false); // 3 letters: no corrections
  });
});

describe("fuzzy", () => {
  it("keeps a word as typed only when it matches something", () => {
    const candidates = [
      { word: "blue", records: 30, places: 0 },
      { word: "bleu", records: 5, places: 0 },
      { word: "roof", records: 8, places: 0 },
    ];
    const both = readings(alternatives(["bleu", "room"], candidates, [true, true]));
    expect(both).toContainEqual({ words: ["bleu", "roof"], edits: 1 });
    expect(both).toContainEqual({ words: ["blue", "room"], edits: 1 });
    // "blrue" matches nothing as typed: every reading corrects it.
    const corrected = readings(alternatives(["blrue", "room"], candidates, [false, true]));
    expect(corrected.length).toBeGreaterThan(0);
    expect(corrected.every((r) => r.words[0] !== "blrue")).toBe(true);
    expect(corrected[0]).toEqual({ words: ["blue", "room"], edits: 1 });
  });

  it("spreads the edits over the words: every combination of alternatives, fewest edits first", () => {
    // The case: "oden" is a word as typed (Odense) and has many corrections; "ogden" is not
    // among the first few whole readings, but is in the spread that corrects "oden".
    const common = ["odes", "oder", "eden", "open", "oven", "odin", "sden", "oden1", "coden", "aden"];
    const options = alternatives(
      ["north", "oden", "hall"],
      [
        ...common.map((word, i) => ({ word, records: 1000 - i, places: 0 })),
        { word: "ogden", records: 3, places: 0 },
        { word: "halle", records: 500, places: 0 },
        { word: "forth", records: 400, places: 0 },
      ],
    );
    expect(readings(options).some((r) => r.words.includes("ogden"))).toBe(false);
    const list = spreads(options);
    expect(list.map((s) => s.edits)).toEqual([1, 1, 1, 2, 2, 2, 3]);
    expect(list).toContainEqual({ edits: 1, words: [["north"], expect.arrayContaining(["ogden", "eden"]), ["hall"]] });
    expect(list[0]?.words.every((group) => group.length > 0)).toBe(true);
    // A word that matches nothing as typed is corrected in every spread.
    const absent = spreads(alternatives(["blrue", "room"], [{ word: "blue", records: 1, places: 0 }], [false, true]));
    expect(absent).toEqual([{ edits: 1, words: [["blue"], ["room"]] }]);
  });

  it("spreads the edits of a long query keeping only the fewest (not 2^26 combinations)", () => {
    const query = Array.from({ length: 26 }, () => "stadthalle");
    const list = spreads(alternatives(query, [{ word: "stadthallen", records: 1, places: 0 }]));
    expect(list).toHaveLength(12);
    expect(list.every((s) => s.edits === 1)).toBe(true);
  });
});

describe("fuzzy: one text for every spread", () => {
  // Alternatives of a few query words, a word 0-2 edits off (0: the word as typed).
  const optionLists = fc.array(
    fc.uniqueArray(
      fc.record({ word: fc.constantFrom("a", "b", "c", "d", "e", "f"), edits: fc.integer({ min: 0, max: 2 }) }),
      {
        selector: (o) => o.word,
        minLength: 1,
        maxLength: 5,
      },
    ),
    { minLength: 1, maxLength: 4 },
  );
  /** Every choice of one alternative per word, as "word word …" with its edits. */
  const choices = (groups: readonly (readonly Alternative[])[]): { key: string; edits: number }[] =>
    groups.reduce<{ key: string; edits: number }[]>(
      (partial, list) =>
        partial.flatMap((c) => list.map((o) => ({ key: `${c.key} ${o.word}`, edits: c.edits + o.edits }))),
      [{ key: "", edits: 0 }],
    );

  it("is, when not null, every choice that some spread holds, plus only choices of no edit (brute force)", () => {
    fc.assert(
      fc.property(optionLists, (options) => {
        const groups = everyAlternative(options);
        const spreadChoices = new Set(
          spreads(options).flatMap((s) =>
            choices(s.words.map((group) => group.map((word) => ({ word, edits: 0 })))).map((c) => c.key),
          ),
        );
        const withEdits = choices(options).filter((c) => c.edits > 0);
        if (groups === null) {
          // Only when spreads() leaves some choice with edits out.
          expect(withEdits.some((c) => !spreadChoices.has(c.key))).toBe(true);
          return;
        }
        const every = choices(groups.map((g) => g.map((word) => ({ word, edits: 0 }))));
        const byKey = new Map(choices(options).map((c) => [c.key, c.edits]));
        for (const c of every) expect(spreadChoices.has(c.key) || byKey.get(c.key) === 0).toBe(true);
        for (const key of spreadChoices) expect(every.some((c) => c.key === key)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("leaves out a prefix that another starts: the same tokens match (brute force)", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c"), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.array(word, { maxLength: 30 }),
        (words, tokens) => {
          const kept = [...anyPrefixOf(words).matchAll(/"([^"]*)"\*/g)].map((m) => m[1] ?? "");
          expect(kept.length).toBeLessThanOrEqual(new Set(words).size);
          for (const t of tokens) {
            expect(kept.some((k) => t.startsWith(k))).toBe(words.some((w) => t.startsWith(w)));
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(anyPrefixOf(["room", "roo", "rom", "romo", "roo"])).toBe('(("roo"*) OR ("rom"*))');
  });
});

describe("fuzzy", () => {
  it("suggests the reading a record's name fits best: fewest edits, then whole words", () => {
    const options = alternatives(
      ["filmore", "aud"],
      [
        { word: "fillmore", records: 10, places: 0 },
        { word: "filmora", records: 50, places: 0 },
      ],
    );
    expect(bestReading(options, [["the", "fillmore", "auditorium"]])).toEqual({ words: ["fillmore", "aud"], edits: 1 });
    expect(bestReading(options, [["filmoras", "audio"]])).toEqual({ words: ["filmora", "aud"], edits: 1 });
    expect(bestReading(options, [["fillmore"]])).toBeNull(); // no word for "aud"
  });
});
