/**
 * The synthetic cities generator (npm run data:scale): its rows must pass the import's checks,
 * keep the source rows first and unchanged, make new names, and be the same for the same seed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { writeSyntheticCities } from "../../scripts/bench/synthetic-cities.ts";

const SOURCE = fileURLToPath(new URL("../fixtures/cities.txt", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "vcs-data-scale-"));

// The import's own checks on a geoname row (scripts/import/sources/geonames.ts).
const GEONAME_ID = /^[1-9][0-9]{0,11}$/;
const DECIMAL = /^-?[0-9]{1,3}(\.[0-9]+)?$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;
const ADMIN1_CODE = /^[0-9A-Za-z]{1,20}$/;
const INTEGER = /^[0-9]{1,12}$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const sourceLines = readFileSync(SOURCE, "utf8")
  .replace(/^\uFEFF/, "")
  .split(/\r?\n/)
  .filter((line) => line.trim() !== "" && line.split("\t")[6] === "P");
const sourceRows = sourceLines.map((line) => line.split("\t"));
const sourceIds = new Set(sourceRows.map((cols) => cols[0]));
const sourceNames = new Set(sourceRows.map((cols) => cols[1]));
const sourceCountries = new Set(sourceRows.map((cols) => cols[8]));
const sourceAdmin1 = new Set(sourceRows.map((cols) => `${cols[8]}.${cols[10]}`));

let runs = 0;
async function generate(count: number, seed: string, source = SOURCE) {
  const out = join(dir, `synthetic-${++runs}.txt`);
  const result = await writeSyntheticCities({ source, out, count, seed });
  const text = readFileSync(out, "utf8");
  return { result, text, lines: text.split("\n").slice(0, -1) };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));
const count = sourceLines.length + 500;

describe("synthetic cities", () => {
  it("writes the source rows unchanged, then valid synthetic rows", async () => {
    const { result, text, lines } = await generate(count, "test");
    expect(text.endsWith("\n")).toBe(true);
    expect(lines).toHaveLength(count);
    expect(result).toEqual({ rows: count, bytes: Buffer.byteLength(text), synthetic: 500 });
    expect(lines.slice(0, sourceLines.length)).toEqual(sourceLines);

    const ids = new Set<string>();
    for (const line of lines) {
      const cols = line.split("\t");
      expect(cols).toHaveLength(19);
      const [id = "", name = "", asciiName = "", alternates = "", lat = "", lng = "", featureClass] = cols;
      expect(id).toMatch(GEONAME_ID);
      expect(ids.has(id)).toBe(false);
      ids.add(id);
      for (const n of [name, asciiName]) {
        expect(n.trim()).not.toBe("");
        expect(n.length).toBeLessThanOrEqual(200);
        expect(n).not.toMatch(CONTROL);
      }
      for (const alternate of alternates === "" ? [] : alternates.split(",")) {
        expect(alternate.trim()).not.toBe("");
        expect(alternate.length).toBeLessThanOrEqual(200);
        expect(alternate).not.toMatch(CONTROL);
      }
      expect(lat).toMatch(DECIMAL);
      expect(lng).toMatch(DECIMAL);
      expect(Math.abs(Number(lat))).toBeLessThanOrEqual(90);
      expect(Math.abs(Number(lng))).toBeLessThanOrEqual(180);
      expect(featureClass).toBe("P");
      expect(cols[8]).toMatch(COUNTRY_CODE);
      expect(sourceCountries.has(cols[8])).toBe(true);
      if (cols[10] !== "") expect(cols[10]).toMatch(ADMIN1_CODE);
      expect(sourceAdmin1.has(`${cols[8]}.${cols[10]}`)).toBe(true);
      if (cols[14] !== "") expect(cols[14]).toMatch(INTEGER);
    }

    const synthetic = lines.slice(sourceLines.length).map((line) => line.split("\t"));
    for (const cols of synthetic) {
      expect(sourceIds.has(cols[0])).toBe(false);
      expect(cols[18]).toBe("2026-01-01");
      expect(cols[4]).toMatch(/^-?[0-9]+\.[0-9]{5}$/);
    }
    // Recombination makes names the source does not have, so the vocabulary grows.
    const newNames = synthetic.filter((cols) => !sourceNames.has(cols[1] ?? ""));
    expect(newNames.length / synthetic.length).toBeGreaterThanOrEqual(0.3);
    // Mostly small places: about 60 % without a population.
    const unpopulated = synthetic.filter((cols) => cols[14] === "" || cols[14] === "0").length / synthetic.length;
    expect(unpopulated).toBeGreaterThan(0.45);
    expect(unpopulated).toBeLessThan(0.75);
  });
});

describe("synthetic cities", () => {
  it("gives the same bytes for the same seed and others for another seed", async () => {
    const a = await generate(count, "same");
    const b = await generate(count, "same");
    const c = await generate(count, "other");
    expect(b.text).toBe(a.text);
    expect(c.text).not.toBe(a.text);
    expect(c.lines.slice(0, sourceLines.length)).toEqual(a.lines.slice(0, sourceLines.length));
  });

  it("writes only the first source rows when asked for fewer than the source has", async () => {
    const { result, lines } = await generate(10, "test");
    expect(result.rows).toBe(10);
    expect(result.synthetic).toBe(0);
    expect(lines).toEqual(sourceLines.slice(0, 10));
    const empty = await generate(0, "test");
    expect(empty.lines).toEqual([]);
  });

  it("reads a source with a BOM, CRLF and rows of other feature classes", async () => {
    const source = join(dir, "source-crlf.txt");
    const other = ["1", "Mont Blanc", "Mont Blanc", "", "45.83", "6.86", "T", "MT", "FR"];
    const rows = [...sourceLines.slice(0, 5), [...other, ...Array<string>(10).fill("")].join("\t")];
    writeFileSync(source, `\uFEFF${rows.join("\r\n")}\r\n`);
    const { lines } = await generate(25, "test", source);
    expect(lines).toHaveLength(25);
    expect(lines.slice(0, 5)).toEqual(sourceLines.slice(0, 5));
    expect(lines.every((line) => line.split("\t")[6] === "P")).toBe(true);
  });
});
