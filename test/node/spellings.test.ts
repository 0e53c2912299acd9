/**
 * The words people write two ways (src/data-contract/spellings.ts, docs/api.md#spellings): the forms
 * a name is indexed under. The property that the query side relies on — whatever way a person
 * writes a name, its normalized text is one of the name's forms — is checked here on random names
 * and against FTS5 itself in test/worker/spellings.test.ts.
 */
import { describe, expect, it } from "vitest";
import { nameForms, nameIndexText } from "../../src/data-contract/spellings.ts";

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
      // The same words in both names: one name holds them all.
      sets: null,
    });
  });

  it("keeps the words of each name apart where names differ, leaving out a name another holds", () => {
    const index = nameIndexText(["San Francisco", "New Albion", "Yerba Buena", "Francisco", "SF", "sf"], 1);
    expect(JSON.parse(index.sets ?? "null")).toEqual(["san francisco", "new albion", "yerba buena", "sf"]);
    expect(index.own).toEqual(["san francisco"]);
    expect(nameIndexText(["St. Louis", "Saint Louis"], 1).own).toEqual(["st louis", "saint louis"]);
    expect(JSON.parse(nameIndexText(["Ste. Foy", "Foy"]).sets ?? "null")).toEqual(null);
    expect(JSON.parse(nameIndexText(["Rock & Roll Hotel", "RnR"]).sets ?? "null")).toEqual([
      "rock and roll hotel",
      "rnr",
    ]);
  });
});
