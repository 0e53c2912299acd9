/**
 * Docs that run: every `curl` example of README.md and docs/api.md (docs-examples.ts says how
 * they are read) sent to the browser tests' server on the default data, each answering what its
 * page shows — ids, totals, fields in their order, headers (docs-answers.ts). The examples are
 * sent to `localhost`, as the pages write them, with the server's port for 8787: the other tests
 * ask 127.0.0.1, whose answers the cache keeps under another origin, and global-setup.ts starts
 * with an empty cache, so an answer shown as `X-Cache: MISS` is a first one here too.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/tools/project.ts";
import { base } from "./browser.ts";
import { matches, mismatch, shownJson } from "./docs-answers.ts";
import { curlExamples, parseCurl, type Example } from "./docs-examples.ts";

const PAGES = ["README.md", "docs/api.md"];
const examples = PAGES.flatMap((page) => curlExamples(page, readFileSync(join(ROOT, page), "utf8")));

async function send(example: Example): Promise<{ response: Response; body: string }> {
  const url = example.curl.url.replace(/^http:\/\/localhost:8787\//, `http://localhost:${new URL(base()).port}/`);
  if (url === example.curl.url) throw new Error(`${example.where}: an example asks http://localhost:8787/…`);
  const response = await fetch(url, { headers: example.curl.headers });
  return { response, body: await response.text() };
}

describe("the curl examples of the docs", () => {
  it("are read from the pages, with the answers they show", () => {
    const readme = examples.filter((e) => e.where.startsWith("README.md"));
    expect(readme.length).toBeGreaterThanOrEqual(3);
    expect(examples.length).toBeGreaterThanOrEqual(20);
    expect(examples.filter((e) => e.shown !== undefined).length).toBeGreaterThanOrEqual(15);
  });

  it.each(examples.map((e) => [e.where, e] as const))("%s answers what the page shows", async (_where, example) => {
    const { response, body } = await send(example);
    if (example.shown === undefined) expect(response.status, `${example.command}\n${body}`).toBe(200);
    else expect(mismatch(example.curl, example.shown, response, body), example.command).toBeNull();
  });
});

describe("the comparison with what a page shows", () => {
  const answer = { type: "venues", total: 2, venue: [{ id: "a1", city: { coords: {} } }, { id: "b2" }] };

  it("checks every field shown, in its order, `…` standing for what was left out", () => {
    expect(matches(shownJson('{"type": "venues", "total": 2, "venue": [{"id": "a1", …}, …]}'), answer)).toBe(true);
    expect(matches(shownJson('{"type": "venues", "total": 3, "venue": [{"id": "a1", …}, …]}'), answer)).toBe(false);
    expect(matches(shownJson('{"type": "venues", "total": 2, "venue": [{"id": "b2"}, …]}'), answer)).toBe(false);
    expect(matches(shownJson('{"total": 2, "type": "venues", …}'), answer)).toBe(false);
    expect(matches(shownJson('{"type": "venues", "total": 2}'), answer)).toBe(false);
    expect(matches(shownJson('{"type": "…", "total": 2, "venue": […, {"id": "b2"}]}'), answer)).toBe(true);
    expect(
      matches(
        shownJson('{"type": "…", "total": 2, "venue": [{"id": "a1", "city": {"coords": {"lat": 1}}}, …]}'),
        answer,
      ),
    ).toBe(false);
  });

  it("finds a fragment anywhere in the answer, and compares XML and header lines", () => {
    const curl = parseCurl(`curl -si -H 'Accept: application/json' 'http://localhost:8787/x' | grep -i '^x-'`);
    expect(curl.headers).toEqual([["Accept", "application/json"]]);
    const response = new Response("", { headers: { "X-Match": "fuzzy", "X-Cache": "MISS", Vary: "Accept" } });
    expect(mismatch(curl, { kind: "lines", lines: ["X-Cache: MISS", "X-Match: fuzzy"] }, response, "")).toBeNull();
    expect(mismatch(curl, { kind: "lines", lines: ["X-Match: fuzzy"] }, response, "")).not.toBeNull();
    const plain = parseCurl("curl 'http://localhost:8787/x'");
    const json = JSON.stringify(answer);
    expect(mismatch(plain, { kind: "fragment", text: '… {"id": "b2"} …' }, response, json)).toBeNull();
    expect(mismatch(plain, { kind: "fragment", text: '… {"id": "c3"} …' }, response, json)).not.toBeNull();
    const xml = '<?xml version="1.0"?><cities total="6"><cities id="1"/><cities id="2"/></cities>';
    const shownXml = (text: string) => ({ kind: "body", format: "xml", text }) as const;
    expect(
      mismatch(plain, shownXml('<?xml version="1.0"?><cities total="6"><cities id="1"/>…</cities>'), response, xml),
    ).toBeNull();
    expect(
      mismatch(plain, shownXml('<?xml version="1.0"?><cities total="5"><cities id="1"/>…</cities>'), response, xml),
    ).not.toBeNull();
    expect(
      mismatch(plain, shownXml('<?xml version="1.0"?><cities total="6"><cities id="1"/></cities>'), response, xml),
    ).not.toBeNull();
  });
});
