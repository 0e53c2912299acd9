/**
 * The search page's words (docs/architecture.md#the-search-page): a place said without repeats
 * (src/page/words.ts), and a refused search explained for its field (src/page/explain.ts).
 */
import { describe, expect, it } from "vitest";
import { explainRefusal } from "../../src/page/explain.ts";
import { placeWords } from "../../src/page/words.ts";

describe("a place in words", () => {
  it("says each part once, whatever its case, and none already said", () => {
    expect(placeWords(["Wien", "Wien", "Österreich"])).toBe("Wien, Österreich");
    expect(placeWords(["Berlin", "State of Berlin", "Germany"])).toBe("Berlin, State of Berlin, Germany");
    expect(placeWords(["Singapore", undefined, "singapore"])).toBe("Singapore");
    expect(placeWords(["Wien", "Österreich"], ["Wien"])).toBe("Österreich");
    expect(placeWords(["", " ", undefined])).toBe("");
    // Accents tell words apart: Łódź is not Lodz's repeat.
    expect(placeWords(["Lodz", "Łódź"])).toBe("Lodz, Łódź");
  });
});

describe("a refused search, explained", () => {
  const sent = new URLSearchParams({ name: "é".repeat(100), country: "€".repeat(100), p: "2" });

  it("tells the field named of a value over the limit", () => {
    expect(explainRefusal("parameter cityName is longer than 100 characters", sent)).toEqual({
      param: "cityName",
      words: "Too long: at most 100 characters.",
    });
  });

  it("tells the field with the longest value, as sent, of a query string over the limit", () => {
    const explained = explainRefusal("the query string is longer than 2048 bytes", sent);
    expect(explained.param).toBe("country");
    expect(explained.words).toMatch(/^Too long all together: a search takes at most 2,048 bytes as sent/);
  });

  it("says any other refusal as a sentence, for its parameter or for none", () => {
    expect(explainRefusal("parameter lat must be a latitude in decimal degrees, from -90 to 90", sent)).toEqual({
      param: "lat",
      words: "Must be a latitude in decimal degrees, from -90 to 90.",
    });
    expect(explainRefusal("something else", sent)).toEqual({ param: null, words: "Something else." });
  });
});
