import { describe, expect, it } from "vitest";
import { compareCodePoints, normalize, prefixEnd, words } from "../../src/data-contract/normalize.ts";

describe("normalize", () => {
  it.each([
    ["Zürich", "zurich"],
    ["ZURICH ", "zurich"],
    ["  zurich", "zurich"],
    ["München", "munchen"],
    ["Łódź", "lodz"],
    ["Straße", "strasse"],
    ["Ærøskøbing", "aeroskobing"],
    ["Rock & Roll <Hotel>", "rock roll hotel"],
    ["O'Brien's   Pub", "o brien s pub"],
    ["AC/DC", "ac dc"],
    ["São Paulo", "sao paulo"],
    ["İstanbul", "istanbul"],
    ["Ｔｏｋｙｏ", "tokyo"], // NFKD folds full-width letters
    ["東京ドーム", "東京トーム"], // the voiced mark is a combining diacritic after NFKD; both sides drop it
    ["Клуб «Космонавт»", "клуб космонавт"],
    ["🎸 Guitar 🎸", "guitar"],
    ["!!!", ""],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(normalize(input)).toBe(expected);
  });

  it("is idempotent", () => {
    for (const s of ["Zürich", "Łódź", "Rock & Roll", "Ｔｏｋｙｏ", "東京 ドーム"]) {
      expect(normalize(normalize(s))).toBe(normalize(s));
    }
  });

  it("splits words", () => {
    expect(words("fill aud")).toEqual(["fill", "aud"]);
    expect(words("")).toEqual([]);
  });
});

describe("prefixEnd", () => {
  it("bounds exactly the strings that start with the prefix", () => {
    const end = prefixEnd("stadthalle");
    for (const s of ["stadthalle", "stadthalle wien", "stadthallez"]) {
      expect(compareCodePoints(s, "stadthalle")).toBeGreaterThanOrEqual(0);
      expect(compareCodePoints(s, end)).toBeLessThan(0);
    }
    for (const s of ["stadthalld", "stadthallf", "wiener stadthalle"]) {
      expect(compareCodePoints(s, "stadthalle") < 0 || compareCodePoints(s, end) >= 0).toBe(true);
    }
  });
  it("refuses an empty prefix", () => {
    expect(() => prefixEnd("")).toThrow(RangeError);
  });
});

describe("compareCodePoints", () => {
  it("orders like SQLite's BINARY collation on UTF-8 (byte order)", () => {
    const samples = ["a", "b", "ab", "\uffef", "\u{1f600}", "\u{20000}", "é", "z", "東", "\ue000"];
    const bytes = [...samples].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...samples].sort(compareCodePoints)).toEqual(bytes);
  });
});
