/**
 * The search page's status line (src/page/searched.ts): how many of what were found, and what was
 * searched, its filters included, as issue 49 asks ("5 venues named arena in Berlin").
 */
import { describe, expect, it } from "vitest";
import { countWords, searchedWords } from "../../src/page/searched.ts";

const said = (kind: "venues" | "cities", query: string, near = "") =>
  searchedWords({ kind, params: new URLSearchParams(query), near });

describe("the status line's words", () => {
  it("count one, many and none", () => {
    expect(countWords(5, "venues")).toBe("5 venues");
    expect(countWords(1, "venues")).toBe("1 venue");
    expect(countWords(1, "cities")).toBe("1 city");
    expect(countWords(12_345, "cities")).toBe("12,345 cities");
    expect(countWords(0, "venues")).toBe("No venues");
  });

  it("say the name and every filter searched", () => {
    expect(said("venues", "name=arena&cityName=Berlin")).toBe(" named arena in Berlin");
    expect(said("cities", "name=paris&country=US")).toBe(" named paris in US");
    expect(said("venues", "name=arena&cityName=Portland&state=Oregon&country=US")).toBe(
      " named arena in Portland, Oregon, US",
    );
    expect(said("venues", "name=club+berlin&typos=0&places=0")).toBe(" named club berlin, exact names only");
    expect(said("cities", "lat=48.8566&long=2.3522&radius=25", "25 km of you")).toBe(" within 25 km of you");
    expect(said("venues", "name=arena&bbox=13.1,52.3,13.7,52.7&p=2")).toBe(" named arena in the map's area, page 2");
    expect(said("venues", "country=DE")).toBe(" in DE");
  });

  it("leave out a City a city search does not filter by", () => {
    expect(said("cities", "name=paris&cityName=Berlin")).toBe(" named paris");
  });
});
