/**
 * Venue files (docs/import.md#venue-files), each recognised by its content, not its name (the
 * MusicBrainz dump's file is `mbdump/place`): one JSON value per line (this service's rows,
 * MusicBrainz places, GeoJSON features, also as an RFC 8142 text sequence), one JSON document
 * with an array of records (Overpass `elements`, GeoJSON `features`, a MusicBrainz search's
 * `places`, a saved setlist.fm page's `venue`), or CSV rows. Everything streams: a line at a time,
 * or a one-document file through a streaming JSON parser, one array element at a time.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { pick } from "stream-json/filters/pick.js";
import { streamArray } from "stream-json/streamers/stream-array.js";
import { RowError, type Problems } from "../problems.ts";
import { readLines } from "./lines.ts";
import { isMusicBrainzPlace, placeToVenue } from "./musicbrainz.ts";
import { featureToVenue, overpassToVenue } from "./openstreetmap.ts";
import type { Skipped, VenueInput } from "./venue-input.ts";
import { readCsv, setlistVenue, venueRow } from "./venue-rows-formats.ts";
import type { VenueSelection } from "./venue-selection.ts";

/** What one file gave: records read, venues kept, records skipped by reason. */
export interface VenueFileReport {
  file: string;
  format: string;
  read: number;
  kept: number;
  /** Names kept besides the names shown: every other name of the kept venues. */
  names: number;
  skipped: Record<string, number>;
  /** After merging: the venues served under a setlist.fm id (docs/import.md#setlistfm-ids). */
  setlistIds?: number;
  /** After placing (phases/place-venues.ts): how each kept venue got its city. */
  placed?: { given: number; hint: number; position: number; none: number; sameVenue: number };
}

type Json = Record<string, unknown>;
type Convert = (o: Json, at: number | string) => VenueInput | Skipped;

/** The arrays a one-document file may hold its records in. */
const DOCUMENT_ARRAYS = ["elements", "features", "places", "venue"] as const;
type DocumentArray = (typeof DOCUMENT_ARRAYS)[number];

type Format =
  { kind: "lines" } | { kind: "document"; array: DocumentArray } | { kind: "csv" } | { kind: "unknown"; why: string };

/** The format of a file, from its first 64 KiB. */
export async function detectFormat(path: string): Promise<Format> {
  const handle = await open(path, "r");
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(65536), 0, 65536, 0).finally(() => void handle.close());
  const head = buffer
    .subarray(0, bytesRead)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (head.startsWith("\u001e")) return { kind: "lines" };
  if (!head.startsWith("{"))
    return head.startsWith("[") ? { kind: "unknown", why: "a JSON array at the top level" } : { kind: "csv" };
  const firstLine = head.slice(0, head.indexOf("\n") === -1 ? undefined : head.indexOf("\n"));
  let first: Json | null = null;
  try {
    first = JSON.parse(firstLine) as Json;
  } catch {
    // Not one value on the first line: a document spread over lines.
  }
  const array = DOCUMENT_ARRAYS.find((key) =>
    first !== null ? Array.isArray(first[key]) : new RegExp(`"${key}"\\s*:\\s*\\[`).test(head),
  );
  if (array !== undefined) return { kind: "document", array };
  return first !== null
    ? { kind: "lines" }
    : { kind: "unknown", why: "JSON without an elements, features, places or venue array" };
}

/** A JSON value on one line of a file: classified by its own content. */
function lineConverter(selection: VenueSelection, file: string): Convert {
  return (o, at) => {
    if (o.type === "Feature") return featureToVenue(o, selection, file, at);
    if (isMusicBrainzPlace(o)) return placeToVenue(o, selection, file, at);
    if (typeof o.type === "string" && "id" in o && ("tags" in o || "lat" in o))
      return overpassToVenue(o, selection, file, String(at));
    if (!("id" in o) && !("name" in o)) {
      throw new RowError(
        "not a venue: expected a row (id, name, …), a MusicBrainz place, an OSM element or a GeoJSON Feature",
      );
    }
    return venueRow(o, file, at);
  };
}

function documentConverter(array: DocumentArray, selection: VenueSelection, file: string): Convert {
  switch (array) {
    case "elements":
      return (o, at) => overpassToVenue(o, selection, file, String(at));
    case "features":
      return (o, at) => featureToVenue(o, selection, file, at);
    case "places":
      return (o, at) => placeToVenue(o, selection, file, at);
    case "venue":
      return (o, at) => setlistVenue(o, file, String(at));
  }
}

/** Records of a file with one JSON value per line (an RFC 8142 record separator is dropped). */
async function* jsonLines(path: string): AsyncGenerator<[unknown, number]> {
  for await (const [raw, lineNo] of readLines(path)) {
    const line = raw.replace(/^\u001e/, "");
    if (line.trim() === "") continue;
    try {
      yield [JSON.parse(line), lineNo];
    } catch {
      yield [new RowError("not valid JSON"), lineNo];
    }
  }
}

/** The elements of one array of a JSON document, streamed; a broken document ends with an error. */
async function* documentItems(path: string, array: DocumentArray): AsyncGenerator<[unknown, string]> {
  const source = createReadStream(path);
  const picked = pick.withParserAsStream({ filter: array });
  const items = source.pipe(picked).pipe(streamArray.asStream());
  // pipe() does not pass errors on: a read or parse error ends the last stream with it.
  for (const stage of [source, picked]) stage.on("error", (e: Error) => items.destroy(e));
  let next = 0;
  try {
    for await (const { key, value } of items as AsyncIterable<{ key: number; value: unknown }>) {
      next = key + 1;
      yield [value, `${array}[${key}]`];
    }
  } catch (e) {
    yield [
      new RowError(
        `malformed or truncated JSON (${e instanceof Error ? e.message : String(e)}); the rest was not read`,
      ),
      `${array}[${next}]`,
    ];
  }
}

/** The venues of files, each file's report filled in as they go. */
export async function* readVenueFiles(
  files: readonly string[],
  selection: VenueSelection,
  problems: Problems,
  reports: VenueFileReport[],
): AsyncGenerator<VenueInput> {
  for (const path of files) {
    const file = basename(path);
    const format = await detectFormat(path);
    const report: VenueFileReport = {
      file,
      format: format.kind === "document" ? `JSON document (${format.array})` : format.kind,
      read: 0,
      kept: 0,
      names: 0,
      skipped: {},
    };
    reports.push(report);
    if (format.kind === "unknown") problems.add(file, 1, `not a venue file: ${format.why}`);
    else if (format.kind === "csv") yield* counted(readCsv(path, file, problems), report);
    else {
      const records = format.kind === "lines" ? jsonLines(path) : documentItems(path, format.array);
      const convert =
        format.kind === "lines" ? lineConverter(selection, file) : documentConverter(format.array, selection, file);
      yield* converted(records, convert, report, problems);
    }
  }
}

async function* counted(rows: AsyncGenerator<VenueInput>, report: VenueFileReport): AsyncGenerator<VenueInput> {
  for await (const row of rows) {
    report.read++;
    report.kept++;
    report.names += row.otherNames.length;
    yield row;
  }
}

async function* converted(
  records: AsyncGenerator<[unknown, number | string]>,
  convert: Convert,
  report: VenueFileReport,
  problems: Problems,
): AsyncGenerator<VenueInput> {
  for await (const [value, at] of records) {
    report.read++;
    const venue = problems.row(report.file, at, () => {
      if (value instanceof RowError) throw value;
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new RowError("expected a JSON object");
      return convert(value as Json, at);
    });
    if (venue === undefined) continue;
    if ("skipped" in venue) report.skipped[venue.skipped] = (report.skipped[venue.skipped] ?? 0) + 1;
    else {
      report.kept++;
      report.names += venue.otherNames.length;
      yield venue;
    }
  }
}
