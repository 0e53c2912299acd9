import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetDataVersion } from "../../src/cache/data-version.ts";
import { call, getJson, getXml, untilCached } from "./helpers.ts";

describe("edge cache", () => {
  it("answers the second identical request from the cache", async () => {
    const first = await getJson("/1.0/search/venues?name=olympiahalle");
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const body = await first.text();
    const second = await untilCached("/1.0/search/venues?name=olympiahalle", { Accept: "application/json" });
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(body);
    expect(second.headers.get("Content-Type")).toBe("application/json");
    expect(second.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
    expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(second.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("shares one entry between equivalent queries", async () => {
    const first = await getJson("/1.0/search/cities?name=Z%C3%BCrich&country=ch");
    expect(first.headers.get("X-Cache")).toBe("MISS");
    await first.arrayBuffer();
    await untilCached("/1.0/search/cities?name=Z%C3%BCrich&country=ch", { Accept: "application/json" });
    for (const path of [
      "/1.0/search/cities?country=CH&name=zurich&p=1",
      "/rest/1.0/search/cities?name=ZURICH%20&country=Ch",
      "/1.0/search/cities/?p=001&name=zurich&country=ch&unknown=1&state=",
    ]) {
      const res = await getJson(path);
      expect(res.headers.get("X-Cache"), path).toBe("HIT");
      await res.arrayBuffer();
    }
    const other = await getJson("/1.0/search/cities?name=zurich&country=ch&p=2");
    expect(other.headers.get("X-Cache")).toBe("MISS");
    await other.arrayBuffer();
  });

  it("never gives one format's body to a request for the other", async () => {
    await (await getJson("/1.0/search/venues?name=hallenstadion")).arrayBuffer();
    const json = await untilCached("/1.0/search/venues?name=hallenstadion", { Accept: "application/json" });
    const xml = await getXml("/1.0/search/venues?name=hallenstadion");
    expect(xml.headers.get("X-Cache")).toBe("MISS");
    expect(xml.headers.get("Content-Type")).toBe("application/xml");
    expect(await xml.text()).toMatch(/^<\?xml/);
    const xmlAgain = await untilCached("/1.0/search/venues?name=hallenstadion", { Accept: "application/xml" });
    expect(xmlAgain.headers.get("Content-Type")).toBe("application/xml");
    expect(xmlAgain.headers.get("ETag")).not.toBe(json.headers.get("ETag"));
  });
});

describe("edge cache", () => {
  it("caches the 404 of an empty search, but not other errors", async () => {
    const first = await getJson("/1.0/search/venues?name=nosuchvenueanywhere");
    expect([first.status, first.headers.get("X-Cache")]).toEqual([404, "MISS"]);
    await first.arrayBuffer();
    const second = await untilCached("/1.0/search/venues?name=nosuchvenueanywhere", { Accept: "application/json" });
    expect(second.status).toBe(404);
    expect(await second.json()).toMatchObject({ code: 404, message: "not found" });

    const bad = await getJson("/1.0/search/venues?p=0");
    expect(bad.headers.get("Cache-Control")).toBe("no-store");
    expect(bad.headers.get("X-Cache")).toBeNull();
  });

  it("answers 304 to a matching If-None-Match, from the cache or not", async () => {
    const first = await getJson("/1.0/search/venues?name=verkstan");
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^"[^"]+"$/);
    await first.arrayBuffer();
    const miss = await getJson("/1.0/search/venues?name=verkstan&p=1", { "If-None-Match": `"other", ${etag}` });
    expect(miss.status).toBe(304);
    expect(await miss.text()).toBe("");
    expect(miss.headers.get("ETag")).toBe(etag);
    const hit = await untilCached("/1.0/search/venues?name=verkstan", {
      Accept: "application/json",
      "If-None-Match": `W/${etag}`,
    });
    expect(hit.status).toBe(304);
    const changed = await getJson("/1.0/search/venues?name=verkstan", { "If-None-Match": '"stale"' });
    expect(changed.status).toBe(200);
  });

  it("starts afresh after a re-import changes the data version", async () => {
    const path = "/1.0/search/cities?name=reykjavik";
    await (await getJson(path)).arrayBuffer();
    const before = await untilCached(path, { Accept: "application/json" });
    const etag = before.headers.get("ETag");
    await env.DB.prepare("UPDATE meta SET value = 'fixture-v2' WHERE key = 'data_version'").run();
    forgetDataVersion();
    try {
      const after = await getJson(path, { "If-None-Match": etag ?? "" });
      expect(after.status).toBe(200);
      expect(after.headers.get("X-Cache")).toBe("MISS");
      expect(after.headers.get("ETag")).not.toBe(etag);
    } finally {
      await env.DB.prepare("UPDATE meta SET value = 'fixture-v1' WHERE key = 'data_version'").run();
      forgetDataVersion();
    }
  });

  it("HEAD requests are cached like GET", async () => {
    const res = await call("/1.0/search/cities?name=malmo", { method: "HEAD" });
    expect(res.status).toBe(200);
    const again = await untilCached("/1.0/search/cities?name=malmo", { Accept: "application/xml" });
    expect(again.status).toBe(200);
  });
});
