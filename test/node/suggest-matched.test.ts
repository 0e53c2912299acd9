/**
 * Why a suggestion is there (src/suggest/matched.ts, docs/api.md#suggestions): the name that holds
 * the typed words and each typed word's span in it, in UTF-16 code units as JavaScript indexes the
 * name — the typed letters' extent in the characters shown, or the whole word when it matched
 * another way of writing it.
 */
import { describe, expect, it } from "vitest";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { matchedName } from "../../src/suggest/matched.ts";

/** `matched` for a text as typed, against the names in the order they are preferred. */
const matched = (text: string, names: readonly string[]) => matchedName(words(normalize(text)), names);

/** The marked parts of the name. */
const marked = (text: string, names: readonly string[]): string[] => {
  const m = matched(text, names);
  return m.spans.map((s) => m.name.slice(s.offset, s.offset + s.length));
};

describe("the spans of the typed words in the name", () => {
  it("marks the typed letters as the name shows them: Düren typed dur is 3 characters", () => {
    expect(matched("dur", ["Düren"])).toEqual({ name: "Düren", spans: [{ offset: 0, length: 3 }] });
    // Decomposed, the ü is two code units: the span takes both.
    expect(matched("dur", ["Du\u0308ren"])).toEqual({ name: "Du\u0308ren", spans: [{ offset: 0, length: 4 }] });
    expect(marked("stras", ["Straße"])).toEqual(["Straß"]);
  });

  it("marks a word written the other way whole: ue for ü, Saint for St.", () => {
    expect(matched("due", ["Düren"]).spans).toEqual([{ offset: 0, length: 5 }]);
    expect(matched("saint lo", ["St. Louis"])).toEqual({
      name: "St. Louis",
      spans: [
        { offset: 0, length: 2 },
        { offset: 4, length: 2 },
      ],
    });
    expect(marked("st l", ["Saint-Louis"])).toEqual(["Saint", "L"]);
    expect(marked("rock and r", ["Rock & Roll Hotel"])).toEqual(["Rock", "&", "R"]);
  });

  it("counts UTF-16 code units after other scripts and punctuation", () => {
    expect(matched("alem", ["Ādīs ‘Alem"]).spans).toEqual([{ offset: 6, length: 4 }]);
    expect(matched("adis a", ["Ādīs ‘Alem"]).spans).toEqual([
      { offset: 0, length: 4 },
      { offset: 6, length: 1 },
    ]);
    expect(matched("東", ["東京"])).toEqual({ name: "東京", spans: [{ offset: 0, length: 1 }] });
    expect(matched("hok chi", ["Hok-chiu-chhī"]).spans).toEqual([
      { offset: 0, length: 3 },
      { offset: 4, length: 3 },
    ]);
    expect(marked("chh", ["Hok-chiu-chhī"])).toEqual(["chh"]);
    // An astral character is two code units.
    expect(matched("b", ["𝔸 Bar"]).spans).toEqual([{ offset: 3, length: 1 }]);
  });

  it("gives each typed word a word of its own", () => {
    expect(marked("santa cruz de la s", ["Santa Cruz de la Sierra"])).toEqual(["Santa", "Cruz", "de", "la", "S"]);
    expect(marked("al b", ["Al Başrah"])).toEqual(["Al", "B"]);
    expect(matched("al basrah al", ["Al Başrah", "Basrah"])).toEqual({ name: "Al Başrah", spans: [] });
  });
});

describe("the name that holds the typed words", () => {
  it("is the shown name when it holds them, else the first other name that does", () => {
    expect(matched("fuz", ["Fuzhou", "Fuzhou", "Hok-chiu-chhī"]).name).toBe("Fuzhou");
    expect(matched("hok chi", ["Fuzhou", "Fuzhou", "Foochow", "Hok-chiu-chhī"])).toEqual({
      name: "Hok-chiu-chhī",
      spans: [
        { offset: 0, length: 3 },
        { offset: 4, length: 3 },
      ],
    });
    expect(matched("al maw", ["Mosul", "Mosul", "Al Mawşil"]).name).toBe("Al Mawşil");
    // In German, Munich is shown as München; the English name is another name.
    expect(matched("munich", ["München", "Munich"]).name).toBe("Munich");
  });

  it("forgives typos when no name holds the words as typed (the typo fallback's suggestions)", () => {
    expect(matched("zurihc", ["Zürich"])).toEqual({ name: "Zürich", spans: [{ offset: 0, length: 6 }] });
    expect(matched("berlinn", ["Berlin"]).name).toBe("Berlin");
  });
});

describe("the names read", () => {
  it("reads a record's other names only when its shown names do not hold the words", () => {
    const typed = words(normalize("par"));
    let read = 0;
    const others = () => {
      read++;
      return ["Parigi", "Paris", "Lutetia"];
    };
    expect(matchedName(typed, ["Paris", ""], others).name).toBe("Paris");
    expect(read).toBe(0);
    expect(matchedName(words(normalize("lut")), ["Paris", ""], others).name).toBe("Lutetia");
    // Read once for both passes, the strict and the one forgiving typos.
    expect(matchedName(words(normalize("qqq")), ["Paris"], others)).toEqual({ name: "Paris", spans: [] });
    expect(read).toBe(2);
    expect(matchedName(typed, ["", ""], () => []).name).toBe("");
  });
});
