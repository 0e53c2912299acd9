import { describe, expect, it } from "vitest";
import { negotiateFormat, parseAccept } from "../../src/http/negotiate.ts";

describe("parseAccept", () => {
  it("reads ranges and q-values, dropping malformed ones", () => {
    expect(parseAccept("application/json;q=0.8, text/*, */*;q=0.1, bad, a/b/c, */json")).toEqual([
      { type: "application", subtype: "json", q: 0.8, index: 0 },
      { type: "text", subtype: "*", q: 1, index: 1 },
      { type: "*", subtype: "*", q: 0.1, index: 2 },
    ]);
    expect(parseAccept("application/json;q=2")[0]?.q).toBe(0);
    expect(parseAccept("Application/JSON ; Q=0.5")[0]).toMatchObject({ type: "application", subtype: "json", q: 0.5 });
  });
});

describe("negotiateFormat", () => {
  it.each([
    [null, "xml"],
    ["", "xml"],
    ["*/*", "xml"],
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["text/xml", "xml"],
    ["application/*;q=0.5, application/json;q=0.4", "xml"],
    ["application/*;q=0.5, application/xml;q=0.4", "json"],
    ["*/*;q=0.9, application/json", "json"],
    ["application/json;q=0.9, application/xml;q=0.9", "json"],
    ["text/html", null],
    ["*/*;q=0", null],
  ])("%s → %s", (accept, expected) => {
    expect(negotiateFormat(accept)).toBe(expected);
  });
});
