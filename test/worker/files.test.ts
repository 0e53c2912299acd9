/**
 * The page's files (src/http/files.ts): the worker asks the files' worker (FILES, here a stand-in
 * holding one file) for every GET or HEAD of a path it does not answer itself, before its router —
 * so a file needs no API key — and answers the rest: the page, the API, what the files' worker does
 * not hold (the contract's 404).
 */
import { describe, expect, it } from "vitest";
import { callWith, type ErrorJson } from "./helpers.ts";

const FILE = "console.log('the page');";

/** A files' worker holding /app.js, and the paths it was asked for. */
function standIn() {
  const asked: string[] = [];
  const files = {
    fetch(request: Request) {
      const path = new URL(request.url).pathname;
      asked.push(`${request.method} ${path}`);
      return Promise.resolve(
        path === "/app.js"
          ? new Response(request.method === "HEAD" ? null : FILE, { headers: { "Content-Type": "text/javascript" } })
          : new Response("no such file", { status: 404 }),
      );
    },
  };
  return { asked, files };
}

const KEYS = { API_KEY_HASHES: "a".repeat(64) };

describe("the page's files", () => {
  it("are the files' worker's, without an API key", async () => {
    const { asked, files } = standIn();
    const res = await callWith({ FILES: files, ...KEYS }, "/app.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript");
    expect(await res.text()).toBe(FILE);
    const head = await callWith({ FILES: files, ...KEYS }, "/app.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(asked).toEqual(["GET /app.js", "HEAD /app.js"]);
  });

  it("what the files' worker does not hold is the contract's 404", async () => {
    const { asked, files } = standIn();
    const res = await callWith({ FILES: files }, "/app.css", { headers: { Accept: "application/json" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(((await res.json()) as ErrorJson).message).toMatch(/^not found/);
    expect(asked).toEqual(["GET /app.css"]);
  });

  it("the page, the API and other methods are never asked of them", async () => {
    const { asked, files } = standIn();
    const paths = ["/", "/1.0/app.js", "/rest/1.0/app.js", "/1.0", "/1.0/search/cities?name=paris"];
    const statuses = [];
    for (const path of paths) statuses.push((await callWith({ FILES: files }, path)).status);
    expect(statuses).toEqual([200, 404, 404, 404, 200]);
    expect((await callWith({ FILES: files }, "/app.js", { method: "POST" })).status).toBe(404);
    expect((await callWith({ FILES: files, ...KEYS }, "/1.0/app.js")).status).toBe(401);
    expect(asked).toEqual([]);
  });
});
