/**
 * The search page's status line (src/page/searched.ts): how many of what were found, and what was
 * searched, its filters included, as issue 49 asks ("5 venues named arena in Berlin"), its places
 * as the data names them where an answer does (issue 55: not "in berlin, Berlin"), and a record
 * opened by its name and place (not "looked up by its id 71043b52").
 */
import { describe, expect, it } from "vitest";
import { countWords, recordWords, searchedWords, type NamedPlaces } from "../../src/page/searched.ts";

const said = (kind: "venues" | "cities", query: string, near = "", named: NamedPlaces = {}) =>
  searchedWords({ kind, params: new URLSearchParams(query), near }, named);

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
    expect(said("cities", "name=paris&cityName=berlin", "", { city: "Berlin" })).toBe(" named paris");
  });

  it("name the places as the data does, each once, and the ones it does not as typed", () => {
    const berlin = { city: "Berlin", state: "Berlin", country: "Germany" };
    expect(said("venues", "name=arena&cityName=berlin&state=berlin&country=de", "", berlin)).toBe(
      " named arena in Berlin, Germany",
    );
    expect(said("venues", "name=arena&state=berlin&country=de", "", { country: "Germany" })).toBe(
      " named arena in berlin, Germany",
    );
    // A place the search did not filter by is not said, whatever the data names.
    const texas = { city: "Paris", state: "Texas", country: "United States" };
    expect(said("cities", "name=paris&country=US", "", texas)).toBe(" named paris in United States");
    expect(said("cities", "name=paris&country=us", "", { country: " " })).toBe(" named paris in us");
  });
});

describe("a record opened, in words", () => {
  it("says its name and where it is", () => {
    expect(recordWords("cities", "Berlin", "Germany")).toBe("One city: Berlin, Germany.");
    expect(recordWords("venues", "Arena Berlin", "Berlin, Germany")).toBe(
      "One venue: Arena Berlin in Berlin, Germany.",
    );
    expect(recordWords("venues", "Somewhere Hall", "")).toBe("One venue: Somewhere Hall.");
  });
});
