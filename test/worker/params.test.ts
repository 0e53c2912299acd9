import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import { canonicalQuery, parseSearchParams } from "../../src/params";

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
      parse("?name=Fill+Aud&cityName=Z%C3%BCrich&state=Baden-W%C3%BCrttemberg&stateCode=ca&country=us&cityId=5392171"),
    ).toEqual({
      page: 1,
      name: "fill aud",
      cityName: "zurich",
      state: "baden wurttemberg",
      stateCode: "CA",
      country: { code: "US" },
      cityId: "5392171",
    });
    expect(parse("country=The%20Netherlands").country).toEqual({ nameNorm: "the netherlands" });
  });

  it("ignores unknown parameters, the other resource's ones, and empty values", () => {
    expect(parse("foo=1&bar&=x&name=")).toEqual({ page: 1 });
    expect(parseSearchParams("cities", "cityId=1&cityName=x")).toEqual({ page: 1 });
    expect(parse("unknown=%zz")).toEqual({ page: 1 });
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
