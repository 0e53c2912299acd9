/**
 * Why a suggestion or a result is there, as its option or its line shows it (src/page/matched.ts):
 * the typed parts of the name that matched marked from its spans (UTF-16 offsets and lengths, as
 * the API gives them), that name beside the shown one when it is another, the place read marked in
 * the option's place line; spans overlapping, touching, out of range or splitting a character taken
 * as they come, and a record without `matched` shown as before.
 */
import { describe, expect, it } from "vitest";
import {
  markedRuns,
  optionParts,
  otherName,
  placeRuns,
  readMatched,
  type Run,
  type Span,
} from "../../src/page/matched.ts";

/** Runs written as text with the marked parts in [brackets]. */
const shown = (runs: readonly Run[]): string => runs.map((r) => (r.marked ? `[${r.text}]` : r.text)).join("");

const marked = (text: string, ...spans: [number, number][]): string =>
  shown(
    markedRuns(
      text,
      spans.map(([offset, length]): Span => ({ offset, length })),
    ),
  );

describe("the typed parts of a name", () => {
  it("are marked at their UTF-16 offsets, in names of any script", () => {
    expect(marked("Düren", [0, 3])).toBe("[Dür]en");
    expect(marked("Ādīs ‘Alem", [0, 4], [6, 1])).toBe("[Ādīs] ‘[A]lem");
    expect(marked("東京", [0, 1])).toBe("[東]京");
    expect(marked("東京", [0, 2])).toBe("[東京]");
    expect(marked("Hok-chiu-chhī", [0, 2], [4, 3])).toBe("[Ho]k-[chi]u-chhī");
    expect(marked("Hok-chiu-chhī", [9, 4])).toBe("Hok-chiu-[chhī]");
    expect(marked("Berlin")).toBe("Berlin");
  });

  it("never split a character: a surrogate pair, a letter and its combining marks", () => {
    // "ü" written as u and a combining diaeresis: a span ending after the u takes the mark too.
    expect(marked("Du\u0308ren", [0, 2])).toBe("[Du\u0308]ren");
    expect(marked("Du\u0308ren", [2, 2])).toBe("D[u\u0308r]en");
    // 𝔸 is two code units: a span starting or ending inside it takes all of it.
    expect(marked("𝔸rena", [1, 2])).toBe("[𝔸r]ena");
    expect(marked("x𝔸y", [0, 2])).toBe("[x𝔸]y");
  });

  it("join spans that overlap or touch, in any order", () => {
    expect(marked("Hok-chiu-chhī", [2, 4], [0, 3])).toBe("[Hok-ch]iu-chhī");
    expect(marked("Hok-chiu-chhī", [4, 3], [0, 4])).toBe("[Hok-chi]u-chhī");
    expect(marked("Hok-chiu-chhī", [9, 2], [0, 2], [4, 1])).toBe("[Ho]k-[c]hiu-[ch]hī");
  });

  it("clip spans out of range, and drop the ones that hold nothing", () => {
    expect(marked("Düren", [-2, 4])).toBe("[Dü]ren");
    expect(marked("Düren", [3, 100])).toBe("Dür[en]");
    expect(marked("Düren", [5, 2], [10, 1], [2, 0], [4, -3], [-5, 2])).toBe("Düren");
  });
});

describe("a suggestion's matched field", () => {
  it("marks the shown name when it matched, and shows another name that did beside it", () => {
    const same = optionParts("Ho Chi Minh City", { name: "Ho Chi Minh City", spans: [{ offset: 0, length: 2 }] });
    expect(shown(same.name)).toBe("[Ho] Chi Minh City");
    expect(same.other).toBeNull();
    const other = optionParts("Fuzhou", {
      name: "Hok-chiu-chhī",
      spans: [
        { offset: 0, length: 2 },
        { offset: 4, length: 3 },
      ],
    });
    expect(shown(other.name)).toBe("Fuzhou");
    expect(shown(other.other ?? [])).toBe("[Ho]k-[chi]u-chhī");
    expect(shown(optionParts("Mosul", { name: "Al Mawşil", spans: [{ offset: 3, length: 5 }] }).other ?? [])).toBe(
      "Al [Mawşi]l",
    );
  });

  it("is read for the place at the end of the text", () => {
    expect(optionParts("Club Cobalt", { name: "Club Cobalt", spans: [], place: "Berlin" }).place).toBe("Berlin");
    expect(readMatched({ name: "Club Cobalt", spans: [], place: "" })?.place).toBeNull();
  });

  it("is tolerated missing or not the shape: the option as it was", () => {
    for (const matched of [undefined, null, 5, "Berlin", {}, { name: 3 }, { spans: [] }]) {
      expect(optionParts("Berlin", matched)).toEqual({
        name: [{ text: "Berlin", marked: false }],
        other: null,
        place: null,
      });
    }
    const badSpans = {
      name: "Berlin",
      spans: [{ offset: 0 }, { offset: "0", length: 3 }, { offset: 0.5, length: 2 }, null, { offset: 0, length: 3 }],
    };
    expect(shown(optionParts("Berlin", badSpans).name)).toBe("[Ber]lin");
    expect(shown(optionParts("Berlin", { name: "Berlin", spans: "0,3" }).name)).toBe("Berlin");
  });
});

describe("a result's matched field", () => {
  it("names the name that matched when it is another than the shown one, as the result shows it beside", () => {
    expect(otherName("Saint Petersburg", { name: "Leningrad", spans: [{ offset: 0, length: 9 }] })).toBe("Leningrad");
    expect(otherName("Mirnyy", { name: "Leningrad-300", spans: [{ offset: 0, length: 9 }] })).toBe("Leningrad-300");
    expect(otherName("Paris", { name: "Paris", spans: [{ offset: 0, length: 5 }] })).toBeNull();
  });

  it("names none when `matched` is missing or not the shape: the result as it was", () => {
    for (const matched of [undefined, null, 5, "Leningrad", {}, { name: 3 }, { spans: [] }]) {
      expect(otherName("Saint Petersburg", matched)).toBeNull();
    }
  });
});

describe("the place read, in an option's place line", () => {
  it("is marked where the line names it as one of its parts", () => {
    expect(shown(placeRuns("Berlin, Germany · club", "Berlin"))).toBe("[Berlin], Germany · club");
    expect(shown(placeRuns("Berlingerode, Thuringia, Germany", "Berlin"))).toBe("Berlingerode, Thuringia, Germany");
    expect(shown(placeRuns("Neu-Berlin, Berlin · club", "Berlin"))).toBe("Neu-Berlin, [Berlin] · club");
    expect(shown(placeRuns("Wien, Österreich · club", "Österreich"))).toBe("Wien, [Österreich] · club");
    expect(shown(placeRuns("Hamburg, Germany · club", "Berlin"))).toBe("Hamburg, Germany · club");
    expect(shown(placeRuns("Berlin, Germany · club", null))).toBe("Berlin, Germany · club");
  });
});
