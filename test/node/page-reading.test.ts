/**
 * The place the API read at the end of a name, in the search page's words (src/page/reading.ts,
 * docs/architecture.md#the-search-page): from X-Read-As and the first result.
 */
import { describe, expect, it } from "vitest";
import { placeRead, readAs, readingWords } from "../../src/page/reading.ts";

/** Country names as the browser gives them, in English. */
const NAMES: Record<string, string> = { DE: "Germany", US: "United States", GB: "United Kingdom" };
const countryName = (code: string): string | undefined => NAMES[code.toUpperCase()];

const BERLIN = { id: "2950159", name: "Berlin", state: "State of Berlin", stateCode: "16" };

describe("the place read at the end of a name", () => {
  it("reads X-Read-As: the name left and the place's parameters", () => {
    expect(readAs("cityId=2950159&name=club")).toEqual({ name: "club", cityId: "2950159" });
    expect(readAs("country=US&name=portland&stateCode=OR")).toEqual({
      name: "portland",
      country: "US",
      stateCode: "OR",
    });
    expect(readAs("country=GB&name=caf%C3%A9%20de%20paris")).toEqual({ name: "café de paris", country: "GB" });
    expect(readAs("country=GB")).toEqual({ name: "", country: "GB" });
  });

  it("names a city read by id with its country: from the result, else from its code", () => {
    const read = readAs("cityId=2950159&name=club");
    expect(placeRead(read, { ...BERLIN, country: { code: "DE", name: "Deutschland" } }, countryName)).toBe(
      "Berlin, Deutschland",
    );
    expect(placeRead(read, { ...BERLIN, country: { code: "DE" } }, countryName)).toBe("Berlin, Germany");
    // A venue's city in a search carries no country: the city alone.
    expect(placeRead(read, { ...BERLIN, country: {} }, countryName)).toBe("Berlin");
    // Not the city read, or no result: nothing to say.
    expect(placeRead(read, { ...BERLIN, id: "1" }, countryName)).toBeNull();
    expect(placeRead(read, undefined, countryName)).toBeNull();
  });

  it("names a state and country as the first result does, else by their codes", () => {
    const read = readAs("country=US&name=portland&stateCode=OR");
    const portland = { id: "5746545", name: "Portland", state: "Oregon", stateCode: "OR" };
    expect(placeRead(read, { ...portland, country: { code: "US", name: "United States" } }, countryName)).toBe(
      "Oregon, United States",
    );
    // A venue's city: its state, the country by its code.
    expect(placeRead(read, { ...portland, country: {} }, countryName)).toBe("Oregon, United States");
    expect(placeRead(read, { ...portland, stateCode: "ME", state: "Maine" }, countryName)).toBe("OR, United States");
    expect(placeRead(read, undefined, () => undefined)).toBe("OR, US");
  });

  it("names a country from the first result, else by its code", () => {
    const read = readAs("country=GB&name=london");
    expect(placeRead(read, { country: { code: "GB", name: "Royaume-Uni" } }, countryName)).toBe("Royaume-Uni");
    expect(placeRead(read, { ...BERLIN, country: {} }, countryName)).toBe("United Kingdom");
    expect(placeRead(readAs("name=club"), BERLIN, countryName)).toBeNull();
  });

  it("is said in a line, or as a place named when it cannot be told", () => {
    const read = readAs("cityId=2950159&name=club");
    expect(readingWords("venues", read, "Berlin, Germany")).toBe("Showing venues matching “club” in Berlin, Germany");
    expect(readingWords("cities", readAs("country=GB"), "United Kingdom")).toBe("Showing cities in United Kingdom");
    expect(readingWords("venues", read, null)).toBe("Showing results for “club” in the place you named");
  });
});
