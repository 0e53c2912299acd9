import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/errors.ts";
import { canonicalQuery, parseSearchParams } from "../../src/params/search.ts";

const parse = (q: string) => parseSearchParams("venues", q);

function error(q: string): ApiError {
  try {
    parse(q);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error(`no error for ${q}`);
}

describe("parseSearchParams", () => {
  it("normalizes text values and upper-cases codes", () => {
    expect(
      parse("name=Fill+Aud&cityName=Z%C3%BCrich&state=Baden-W%C3%BCrttemberg&stateCode=ca&country=us&cityId=5392171"),
    ).toEqual({
      page: 1,
      typos: true,
      places: true,
      name: "fill aud",
      nameWords: ["fill", "aud"],
      cityName: "zurich",
      state: "baden wurttemberg",
      stateCode: "CA",
      country: { code: "US" },
      cityId: "5392171",
    });
    expect(parse("country=The%20Netherlands").country).toEqual({ nameNorm: "the netherlands" });
  });

  it("ignores unknown parameters, the other resource's ones, and empty values", () => {
    const none = { page: 1, typos: true, places: true, nameWords: [] };
    expect(parse("foo=1&bar&=x&name=")).toEqual(none);
    expect(parseSearchParams("cities", "cityId=1&cityName=x")).toEqual(none);
    expect(parse("unknown=%zz")).toEqual(none);
  });

  it("rejects repeats, long values and broken escapes, naming the parameter", () => {
    expect(error("name=a&name=b").message).toBe("parameter name is given more than once");
    expect(error("p=1&p=").message).toBe("parameter p is given more than once");
    expect(error(`state=${"a".repeat(101)}`).message).toBe("parameter state is longer than 100 characters");
    expect(error("cityName=%E0%A4%A").message).toBe("parameter cityName has malformed percent-encoding");
    expect(error("country=%zz").status).toBe(400);
  });

  it("counts characters, not bytes or UTF-16 units", () => {
    expect(parse(`name=${"%F0%9F%8E%B8".repeat(100)}`).name).toBe("");
    expect(error(`name=${"%F0%9F%8E%B8".repeat(101)}`).status).toBe(400);
  });

  it("accepts p from 1 to 999999", () => {
    expect(parse("p=1").page).toBe(1);
    expect(parse("p=999999").page).toBe(999999);
    expect(parse("p=000007").page).toBe(7);
    for (const p of ["0", "1000000", "-1", "1.0", "x", "1%200"]) expect(error(`p=${p}`).status).toBe(400);
  });
});

describe("lat, long, radius and typos (docs/api.md#typo-tolerance)", () => {
  it("takes decimal degrees and a radius in km, 25 by default, rounded as the cache key", () => {
    expect(parse("lat=51.50735&long=-0.12776").near).toEqual({ lat: 51.5074, lng: -0.1278, radiusKm: 25 });
    expect(parse("lat=-90&long=180&radius=500").near).toEqual({ lat: -90, lng: 180, radiusKm: 500 });
    expect(parse("lat=%2B48.8&long=2.35&radius=0.5").near).toEqual({ lat: 48.8, lng: 2.35, radiusKm: 0.5 });
    expect(parse("lat=-0.00001&long=0").near).toEqual({ lat: 0, lng: 0, radiusKm: 25 });
    expect(parse("typos=0").typos).toBe(false);
    expect(parse("typos=1").typos).toBe(true);
    expect(parse("places=0").places).toBe(false);
    expect(parse("places=1").places).toBe(true);
  });

  it("rejects bad values with a 400 naming the parameter", () => {
    const cases: [string, string][] = [
      ["lat=91&long=0", "lat"],
      ["lat=abc&long=0", "lat"],
      ["lat=1e2&long=0", "lat"],
      ["lat=0&long=180.5", "long"],
      ["lat=0&long=-181", "long"],
      ["lat=0&long=0x1", "long"],
      ["lat=0", "long"],
      ["long=0", "lat"],
      ["radius=5", "radius"],
      ["lat=0&long=0&radius=0", "radius"],
      ["lat=0&long=0&radius=501", "radius"],
      ["lat=0&long=0&radius=-5", "radius"],
      ["lat=0&long=0&radius=ten", "radius"],
      ["typos=2", "typos"],
      ["typos=yes", "typos"],
      ["places=2", "places"],
      ["places=no", "places"],
    ];
    for (const [q, name] of cases) {
      const e = error(q);
      expect(e.status, q).toBe(400);
      expect(e.message, q).toMatch(new RegExp(`^parameter ${name} `));
    }
  });

  it("puts them in the canonical query, rounded; typos only when off", () => {
    expect(canonicalQuery(parse("lat=51.500001&long=-0.1&name=x"))).toBe("lat=51.5&long=-0.1&name=x&p=1&radius=25");
    expect(canonicalQuery(parse("lat=51.5&long=-0.1&radius=25.0&name=x"))).toBe(
      canonicalQuery(parse("name=x&lat=51.50000&long=-0.10&radius=25")),
    );
    expect(canonicalQuery(parse("name=x&typos=1"))).toBe(canonicalQuery(parse("name=x")));
    expect(canonicalQuery(parse("name=x&typos=0"))).toBe("name=x&p=1&typos=0");
    expect(canonicalQuery(parse("name=x&places=1"))).toBe(canonicalQuery(parse("name=x")));
    expect(canonicalQuery(parse("name=x&places=0&typos=0"))).toBe("name=x&p=1&places=0&typos=0");
  });
});

describe("canonicalQuery", () => {
  it("is the same for requests that must get the same answer", () => {
    const a = canonicalQuery(parse("name=Paris&p=1&country=fr"));
    expect(canonicalQuery(parse("country=FR&name=PARIS"))).toBe(a);
    expect(canonicalQuery(parse("name=p%C3%A0ris&country=Fr&x=1&p=01"))).toBe(a);
    expect(a).toBe("country=FR&name=paris&p=1");
  });

  it("differs when the answer can differ", () => {
    const base = canonicalQuery(parse("name=paris"));
    expect(canonicalQuery(parse("name=paris&p=2"))).not.toBe(base);
    expect(canonicalQuery(parse("cityName=paris"))).not.toBe(base);
    expect(canonicalQuery(parse("country=France"))).not.toBe(canonicalQuery(parse("country=FR")));
    expect(canonicalQuery(parse("cityId=1"))).not.toBe(canonicalQuery(parse("cityId=01")));
  });
});
