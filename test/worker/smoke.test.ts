import { describe, expect, it } from "vitest";
import { getJson, getXml, parseXml } from "./helpers.ts";

describe("smoke", () => {
  it("answers a venue search in JSON", async () => {
    const res = await getJson("/1.0/search/venues?name=compaq");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: "venues", total: 1 });
  });
  it("answers a city search in XML", async () => {
    const res = await getXml("/1.0/search/cities?name=wien");
    expect(res.status).toBe(200);
    const { root } = parseXml(await res.text());
    expect(root.name).toBe("cities");
    expect(root.children[0]?.attributes.name).toBe("Vienna");
  });
});
