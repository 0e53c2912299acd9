/**
 * Readers for user-supplied venue files (docs/api.md#ids-and-urls): CSV or NDJSON rows of `id,name,cityId,url`,
 * or saved setlist.fm venue-search JSON pages (`{"venue":[…]}`). Rows are streamed and keep their
 * file and line, so that checks made later (the city must exist, an id used twice) can still
 * point at them.
 */
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { CsvError, parse } from "csv-parse";
import { GEO_ID, VENUE_ID, VENUE_ID_RULE } from "../../../src/format/ids.ts";
import { CONTROL, RowError, type Problems } from "../problems.ts";
import { readLines } from "./lines.ts";

export interface VenueInput {
  id: string;
  name: string;
  /** GeoNames id of the venue's city, or null for a venue without a city. */
  cityId: string | null;
  url: string | null;
  file: string;
  line: number;
}

const MAX_NAME = 300;
const MAX_URL = 2000;

/** Validates one row's fields; throws RowError with the reason. */
function venueRow(
  fields: { id: unknown; name: unknown; cityId: unknown; url: unknown },
  file: string,
  line: number,
): VenueInput {
  const id = typeof fields.id === "string" ? fields.id.trim() : "";
  if (!VENUE_ID.test(id)) throw new RowError(`venue id "${String(fields.id ?? "")}" is not ${VENUE_ID_RULE}`);
  return {
    id,
    name: venueName(fields.name, id),
    cityId: cityIdOf(fields.cityId, id),
    url: urlOf(fields.url, id),
    file,
    line,
  };
}

const given = (value: unknown) => value !== null && value !== undefined && value !== "";

function venueName(value: unknown, id: string): string {
  const name = typeof value === "string" ? value.trim().replace(/\s+/g, " ") : "";
  if (name === "") throw new RowError(`venue ${id} has no name`);
  if (CONTROL.test(name)) throw new RowError(`venue ${id}: name contains a control character`);
  if (name.length > MAX_NAME) throw new RowError(`venue ${id}: name is longer than ${MAX_NAME} characters`);
  return name;
}

function cityIdOf(value: unknown, id: string): string | null {
  if (!given(value)) return null;
  const c = String(value).trim();
  if (!GEO_ID.test(c)) throw new RowError(`venue ${id}: cityId "${c}" is not a GeoNames id`);
  return c;
}

function urlOf(value: unknown, id: string): string | null {
  if (!given(value)) return null;
  if (typeof value !== "string") throw new RowError(`venue ${id}: url is not a string`);
  const url = value.trim();
  if (url.length > MAX_URL || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
    throw new RowError(`venue ${id}: url "${url.slice(0, 80)}" is not an http(s) URL`);
  }
  return url;
}

/** The venue rows of files: .csv, .ndjson/.jsonl, or .json (saved setlist.fm pages). */
export async function* readVenueFiles(files: readonly string[], problems: Problems): AsyncGenerator<VenueInput> {
  for (const path of files) {
    const ext = extname(path).toLowerCase();
    if (ext === ".csv") yield* readCsv(path, problems);
    else if (ext === ".ndjson" || ext === ".jsonl") yield* readNdjson(path, problems);
    else if (ext === ".json") yield* readSetlistPage(path, problems);
    else problems.add(basename(path), 1, "unknown venue file type (use .csv, .ndjson, .jsonl or .json)");
  }
}

const HEADER = ["id", "name", "cityid", "url"];

/**
 * CSV per RFC 4180 (csv-parse): an optional header `id,name,cityId,url`; quoted fields may span
 * lines. A row is reported at the line it starts on. Broken CSV syntax (a stray quote) stops the
 * file there, reported at its line, since no parser can tell where the next row begins.
 */
export async function* readCsv(path: string, problems: Problems): AsyncGenerator<VenueInput> {
  const file = basename(path);
  const parser = createReadStream(path).pipe(parse({ info: true, relax_column_count: true, bom: true }));
  let lastLine = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = lastLine + 1;
      lastLine = info.lines;
      if (record.length === 1 && record[0]?.trim() === "") continue;
      if (
        line === 1 &&
        record.map((f) => f.trim().toLowerCase()).join(",") === HEADER.slice(0, record.length).join(",")
      ) {
        continue;
      }
      try {
        if (record.length < 3 || record.length > 4) {
          throw new RowError(`expected 3 or 4 comma-separated fields (id,name,cityId,url), got ${record.length}`);
        }
        yield venueRow({ id: record[0], name: record[1], cityId: record[2], url: record[3] }, file, line);
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        problems.add(file, line, e.message);
      }
    }
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const line = (e as CsvError & { lines?: number }).lines ?? lastLine + 1;
    problems.add(file, line, `malformed CSV (${e.message.split(":")[0]}); the rest of the file was not read`);
  }
}

/** NDJSON: one JSON object per line with id, name, cityId and url. */
export async function* readNdjson(path: string, problems: Problems): AsyncGenerator<VenueInput> {
  const file = basename(path);
  for await (const [line, lineNo] of readLines(path)) {
    if (line.trim() === "") continue;
    try {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new RowError("not valid JSON");
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new RowError("expected a JSON object with id, name, cityId, url");
      }
      const o = value as Record<string, unknown>;
      yield venueRow({ id: o.id, name: o.name, cityId: o.cityId, url: o.url }, file, lineNo);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      problems.add(file, lineNo, e.message);
    }
  }
}

/** A saved setlist.fm venue search page: `{"type":"venues",…,"venue":[{id,name,city:{id},url}]}`. */
export async function* readSetlistPage(path: string, problems: Problems): AsyncGenerator<VenueInput> {
  const file = basename(path);
  const content = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  let page: unknown;
  try {
    page = JSON.parse(content);
  } catch (e) {
    problems.add(file, jsonErrorLine(content, e), "not valid JSON");
    return;
  }
  const venues = (page as { venue?: unknown } | null)?.venue;
  if (!Array.isArray(venues)) {
    problems.add(file, 1, 'expected a setlist.fm venue search page: an object with a "venue" array');
    return;
  }
  const lines = venueArrayLines(content);
  for (const [i, v] of (venues as unknown[]).entries()) {
    const line = lines[i] ?? 1;
    try {
      if (typeof v !== "object" || v === null) throw new RowError(`venue[${i}] is not an object`);
      const o = v as Record<string, unknown>;
      const city = o.city as Record<string, unknown> | undefined;
      if (city !== undefined && (typeof city !== "object" || city === null)) {
        throw new RowError(`venue[${i}].city is not an object`);
      }
      yield venueRow({ id: o.id, name: o.name, cityId: city?.id, url: o.url }, file, line);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      problems.add(file, line, e.message);
    }
  }
}

/** The line on which each element of the top-level "venue" array starts. */
function venueArrayLines(json: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let depth = 0;
  let lastKey = "";
  let venueArrayDepth = -1;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (ch === "\n") line++;
    if (ch === '"') {
      const end = stringEnd(json, i);
      if (depth === 1) lastKey = json.slice(i + 1, end);
      line += newlines(json, i, end);
      i = end;
    } else if (ch === "{" || ch === "[") {
      if (ch === "[" && depth === 1 && lastKey === "venue") venueArrayDepth = depth + 1;
      else if (depth === venueArrayDepth) starts.push(line);
      depth++;
    } else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === venueArrayDepth - 1) venueArrayDepth = -1;
    }
  }
  return starts;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(json: string, start: number): number {
  for (let i = start + 1; i < json.length; i++) {
    if (json[i] === "\\") i++;
    else if (json[i] === '"') return i;
  }
  return json.length;
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function jsonErrorLine(content: string, error: unknown): number {
  const m = /position (\d+)/.exec(error instanceof Error ? error.message : "");
  if (!m) return 1;
  return content.slice(0, Number(m[1])).split("\n").length;
}
