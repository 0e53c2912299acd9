/**
 * This service's own venue formats: CSV or NDJSON rows of `id,name,cityId,url[,lat,long[,kind[,otherNames]]]`
 * (other names `;`-separated; in NDJSON also a list), and
 * saved setlist.fm venue-search pages (`{"venue":[…]}`, each venue's city by its `city.id`).
 */
import { createReadStream } from "node:fs";
import { CsvError, parse } from "csv-parse";
import { RowError, type Problems } from "../problems.ts";
import { cityIdOf, kindOf, positionOf, urlOf, venueId, venueName, type VenueInput } from "./venue-input.ts";
import { cleanName } from "./venue-names.ts";

const HEADER = ["id", "name", "cityid", "url", "lat", "long", "kind", "othernames"];

/** One row of this service's own format. */
export function venueRow(o: Record<string, unknown>, file: string, at: number | string): VenueInput {
  const id = venueId(o.id);
  return {
    id,
    name: venueName(o.name, id),
    localizedNames: {},
    otherNames: otherNamesOf(o.otherNames, id),
    cityId: cityIdOf(o.cityId, id),
    url: urlOf(o.url, id),
    ...positionOf(o.lat, o.long, id),
    kind: kindOf(o.kind, id),
    cityHints: [],
    countryHint: null,
    source: "file",
    file,
    at,
  };
}

/** A row's other names: `;`-separated text, or (NDJSON) a list of names; each a valid name. */
function otherNamesOf(value: unknown, id: string): string[] {
  if (value === undefined || value === null || value === "") return [];
  const parts = Array.isArray(value) ? (value as unknown[]) : typeof value === "string" ? value.split(";") : null;
  if (parts === null) throw new RowError(`venue ${id}: otherNames is neither text nor a list of names`);
  return parts.flatMap((part) => {
    if (typeof part === "string" && part.trim() === "") return [];
    const name = cleanName(part);
    if (name === null) {
      throw new RowError(
        `venue ${id}: other name "${String(part).slice(0, 40)}" is not a name (text, at most 300 characters, no control characters)`,
      );
    }
    return [name];
  });
}

/** One venue of a saved setlist.fm page. */
export function setlistVenue(v: unknown, file: string, at: string): VenueInput {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new RowError("not an object");
  const o = v as Record<string, unknown>;
  const city = o.city;
  if (city !== undefined && (typeof city !== "object" || city === null)) throw new RowError("city is not an object");
  return venueRow(
    { id: o.id, name: o.name, cityId: (city as Record<string, unknown> | undefined)?.id, url: o.url },
    file,
    at,
  );
}

/**
 * CSV per RFC 4180 (csv-parse): an optional header `id,name,cityId,url[,lat,long[,kind[,otherNames]]]`; quoted fields
 * may span lines. A row is reported at the line it starts on. Broken CSV syntax (a stray quote)
 * stops the file there, reported at its line, since no parser can tell where the next row begins.
 */
export async function* readCsv(path: string, file: string, problems: Problems): AsyncGenerator<VenueInput> {
  const parser = createReadStream(path).pipe(parse({ info: true, relax_column_count: true, bom: true }));
  let lastLine = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = lastLine + 1;
      lastLine = info.lines;
      if (record.length === 1 && record[0]?.trim() === "") continue;
      const lower = record.map((f) => f.trim().toLowerCase()).join(",");
      if (line === 1 && lower === HEADER.slice(0, record.length).join(",")) continue;
      const venue = problems.row(file, line, () => {
        if (record.length < 3 || record.length > 8 || record.length === 5) {
          throw new RowError(
            `expected 3, 4, 6, 7 or 8 comma-separated fields (id,name,cityId,url,lat,long,kind,otherNames), got ${record.length}`,
          );
        }
        const [id, name, cityId, url, lat, long, kind, otherNames] = record;
        return venueRow({ id, name, cityId, url, lat, long, kind, otherNames }, file, line);
      });
      if (venue !== undefined) yield venue;
    }
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const line = (e as CsvError & { lines?: number }).lines ?? lastLine + 1;
    problems.add(file, line, `malformed CSV (${e.message.split(":")[0]}); the rest of the file was not read`);
  }
}
