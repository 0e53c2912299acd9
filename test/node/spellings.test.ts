/**
 * The words people write two ways (src/data-contract/spellings.ts, docs/api.md#spellings): the forms
 * a name is indexed under. The property that the query side relies on — whatever way a person
 * writes a name, its normalized text is one of the name's forms — is checked here on random names
 * and against FTS5 itself in test/worker/spellings.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { nameIndexText, sharedStarts } from "../../src/data-contract/name-index.ts";
import { nameForms, nameWords, wordWays } from "../../src/data-contract/spellings.ts";

describe("nameForms", () => {
  it.each([
    ["St. Louis", ["st louis", "saint louis"]],
    ["Saint-Louis", ["saint louis", "st louis"]],
    ["Sainte-Foy", ["sainte foy", "ste foy"]],
    ["Ft. Worth", ["ft worth", "fort worth"]],
    ["Mount Pleasant", ["mount pleasant", "mt pleasant"]],
    ["Main St", ["main st"]], // a street, not a saint: only a word before another is read so
    ["Rock & Roll Hotel", ["rock roll hotel", "rock and roll hotel"]],
    ["Rock and Roll Hotel", ["rock and roll hotel", "rock roll hotel"]],
    ["München", ["munchen", "muenchen"]],
    ["Nürnberg", ["nurnberg", "nuernberg"]],
    ["Düsseldorf", ["dusseldorf", "duesseldorf"]],
    ["Straße", ["strasse"]],
    ["Łódź", ["lodz"]],
    ["Ærøskøbing", ["aeroskobing"]],
    ["Þingvellir", ["thingvellir"]],
    ["Đakovo", ["dakovo"]],
    ["Diyarbakır", ["diyarbakir"]],
    ["Œuvre", ["oeuvre"]],
    ["!!!", []],
  ])("%j → %j", (name, forms) => {
    expect(nameForms(name)).toEqual(forms);
  });

  it("writes out umlauts composed or decomposed alike", () => {
    expect(nameForms("Mu\u0308nchen")).toEqual(nameForms("München"));
  });

  it("gives a record's document the words of every form and every form as a name token", () => {
    expect(nameIndexText(["St. Pauli Theater", "Theater St. Pauli"])).toEqual({
      words: "st saint pauli theater",
      tokens: "_st_pauli_theater _saint_pauli_theater _theater_st_pauli _theater_saint_pauli",
      own: [],
      shared: "",
      // The same words in both names: one name holds them all, and it is the first.
      sets: null,
      texts: null,
    });
  });

  it("keeps the words of each name apart where names differ, leaving out a name another holds", () => {
    const index = nameIndexText(["San Francisco", "New Albion", "Yerba Buena", "Francisco", "SF", "sf"], 1);
    expect(JSON.parse(index.sets ?? "null")).toEqual(["san francisco", "new albion", "yerba buena", "sf"]);
    expect(JSON.parse(index.texts ?? "null")).toEqual(["San Francisco", "New Albion", "Yerba Buena", "SF"]);
    expect(index.own).toEqual(["san francisco"]);
    expect(nameIndexText(["St. Louis", "Saint Louis"], 1).own).toEqual(["st louis", "saint louis"]);
    expect(JSON.parse(nameIndexText(["Ste. Foy", "Foy"]).sets ?? "null")).toEqual(null);
    expect(JSON.parse(nameIndexText(["Rock & Roll Hotel", "RnR"]).sets ?? "null")).toEqual([
      "rock and roll hotel __r2_ro",
      "rnr",
    ]);
  });
});

describe("the names a record's document keeps apart (issue 55)", () => {
  it("counts a word of a name once per time it is written: Al Al is not held by Al Foo", () => {
    const index = nameIndexText(["Al Foo", "Al Al"]);
    expect(JSON.parse(index.sets ?? "null")).toEqual(["al foo", "al __r2_al"]);
    expect(index.shared).toBe("__r2_al");
    // Düren holds every text Duren holds (ü is u or ue): one name.
    expect(nameIndexText(["Düren", "Duren"]).sets).toBe(null);
    expect(nameIndexText(["Duren", "Düren"]).sets).toBe(null);
  });

  it("keeps the one name that holds every other's beside the record when it is not the first", () => {
    expect(nameIndexText(["Foo", "Foo City"], 2)).toMatchObject({ sets: null, texts: '["Foo City"]' });
    expect(nameIndexText(["Foo City", "Foo"], 2)).toMatchObject({ sets: null, texts: null });
  });
});

describe("the words of a name, each its own", () => {
  it.each([
    ["Santa Cruz de la Sierra", [[2, "s"]]],
    ["Baden-Baden", [[2, "baden"]]],
    ["Hok-chiu-chhī", [[2, "ch"]]],
    ["Al Başrah", []],
    // One word written two ways counts once.
    ["St. Sebastian", [[2, "s"]]],
    ["Köln", []],
    [
      "Cat Car Cow",
      [
        [3, "c"],
        [2, "ca"],
      ],
    ],
  ] as const)("%j shares the starts %j", (name, starts) => {
    expect(sharedStarts(wordWays(name))).toEqual(expect.arrayContaining(starts.map(([n, s]) => [n, s])));
    expect(sharedStarts(wordWays(name))).toHaveLength(starts.length);
  });

  it("says where each word is written, in UTF-16 code units", () => {
    expect(nameWords("Ādīs ‘Alem").map((w) => [w.ways, w.offset, w.length])).toEqual([
      [["adis"], 0, 4],
      [["alem"], 6, 4],
    ]);
    expect(nameWords("Rock & Roll").map((w) => [w.ways, w.offset, w.length])).toEqual([
      [["rock"], 0, 4],
      [["", "and"], 5, 1],
      [["roll"], 7, 4],
    ]);
    expect(nameWords("Mu\u0308nchen")).toEqual([{ ways: ["munchen", "muenchen"], offset: 0, length: 8 }]);
  });

  it("reads an ASCII name's words where normalize() reads them, character by character", () => {
    // Brute force: a word is a run of characters that each normalize to letters.
    const runs = (text: string) =>
      Array.from(text.matchAll(/[^&]+/g)).flatMap((m) =>
        Array.from(m[0].matchAll(/./gs)).reduce<{ offset: number; length: number }[]>((spans, c) => {
          if (normalize(c[0]) === "") return spans;
          const last = spans.at(-1);
          const at = (m.index ?? 0) + c.index;
          if (last !== undefined && last.offset + last.length === at) last.length++;
          else spans.push({ offset: at, length: 1 });
          return spans;
        }, []),
      );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."aZ9 .-'_/(x"), maxLength: 24 }), (text) => {
        const read = nameWords(text);
        expect(read.map((w) => ({ offset: w.offset, length: w.length }))).toEqual(runs(text));
        expect(read.map((w) => w.ways[0])).toEqual(words(normalize(text)));
      }),
      { numRuns: 2000 },
    );
  });
});
