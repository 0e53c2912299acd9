import { describe, expect, it } from "vitest";
import { call, callWith } from "./helpers.ts";

describe("the search page", () => {
  it("is HTML with a strict Content-Security-Policy; its script is a static asset (test/e2e)", async () => {
    const res = await call("/", { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'/);
    const html = await res.text();
    expect(html).toMatch(/<script src="\/app\.js" defer><\/script>/);
    expect(html).not.toMatch(/<script>/);
    for (const id of ["name", "country", "state", "lang", "view", "results", "prev", "next", "curl"]) {
      expect(html, id).toContain(`id="${id}"`);
    }
  });

  it("needs no API key, unlike the API", async () => {
    const keys = { API_KEY_HASHES: "0".repeat(64) };
    expect((await callWith(keys, "/")).status).toBe(200);
    expect((await callWith(keys, "/1.0/openapi.json")).status).toBe(200);
    expect((await callWith(keys, "/1.0/search/cities?name=paris")).status).toBe(401);
  });

  it("answers HEAD without a body and other methods with 405", async () => {
    const head = await call("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await call("/", { method: "POST" })).status).toBe(405);
  });
});
