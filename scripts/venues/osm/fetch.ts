/**
 * `npm run venues -- osm "…"`: the venues of a place from an Overpass API server into one Overpass
 * JSON file under data/venues/ (docs/import.md#fetching-real-venues). A country, or a region whose
 * ISO 3166-2 code is known, is asked for as its Overpass area; a city as the box of its reach; a
 * box as itself. When the server refuses an area as too large, it is cut into quarters (those
 * where the place has populated places), fetched one after another, and cut again while refused;
 * the answers are merged, each element once.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { finished } from "node:stream/promises";
import type { Progress } from "../../import/progress.ts";
import type { VenueSelection } from "../../import/sources/venue-selection.ts";
import { FetchError, hostOf, megabytes } from "../http.ts";
import type { FetchPlace } from "../place.ts";
import { downloadPath, discardPartial, keep, LICENCES, type Download } from "../store.ts";
import { runQuery, TooLarge, type OverpassOptions, type Osm3s } from "./overpass.ts";
import { overpassQuery, type Box, type QueryArea, type QuerySettings } from "./query.ts";
import { quarters } from "./tiles.ts";

/** Cuts of an area at most: 4^6 tiles. */
const MAX_DEPTH = 6;

export interface OsmFetch {
  place: FetchPlace;
  selection: VenueSelection;
  settings: QuerySettings;
  client: Omit<OverpassOptions, "onProgress">;
  dir: string;
  /** Whether the place has populated places in a box (a tile without any is not asked for). */
  hasPlaces: (box: Box) => boolean;
  progress: Progress;
}

function queryArea(place: FetchPlace): QueryArea {
  if (place.kind === "country") return { iso3166: "1", code: place.countryCode };
  if (place.kind === "region" && place.iso3166 !== null) return { iso3166: "2", code: place.iso3166 };
  return { box: place.box };
}

/** The query of the place, or of one tile of it. */
export function placeQuery(f: Pick<OsmFetch, "place" | "selection" | "settings">, tile?: Box): string {
  const area = queryArea(f.place);
  return "box" in area && tile !== undefined
    ? overpassQuery({ box: tile }, f.selection, f.settings)
    : overpassQuery(area, f.selection, f.settings, tile);
}

/** Elements into the file as an Overpass answer, each (type, id) once. */
class MergedAnswer {
  private readonly seen = new Set<string>();
  private failure: Error | null = null;
  constructor(private readonly out: WriteStream) {
    out.on("error", (e) => (this.failure ??= e));
    out.write('{"version":0.6,"generator":"venue-city-search (npm run venues), from the Overpass API","elements":[\n');
  }
  add(element: Record<string, unknown>): void {
    const key = `${String(element.type)}/${String(element.id)}`;
    if (this.seen.has(key)) return;
    this.out.write(`${this.seen.size === 0 ? "" : ",\n"}${JSON.stringify(element)}`);
    this.seen.add(key);
  }
  get count(): number {
    return this.seen.size;
  }
  async close(osm3s: Osm3s): Promise<void> {
    this.out.end(`\n],"osm3s":${JSON.stringify(osm3s)}}\n`);
    await finished(this.out).catch((e: unknown) => (this.failure ??= e instanceof Error ? e : new Error(String(e))));
    if (this.failure !== null) throw diskError(this.failure);
  }
  /** Closes the file without finishing it; waits so that the file, once opened, can be removed after. */
  async abandon(): Promise<void> {
    this.out.destroy();
    await finished(this.out).catch(() => undefined);
  }
}

export const diskError = (error: Error): Error =>
  "code" in error && error.code === "ENOSPC"
    ? new FetchError("the disk is full: free some space and run the command again")
    : error;

/** Fetches the place's venues; returns the kept download. */
export async function fetchOsm(f: OsmFetch): Promise<Download> {
  const name = `osm-${f.place.slug}.json`;
  const merged = new MergedAnswer(createWriteStream(downloadPath(f.dir, name).partial));
  try {
    const { osm3s, tiles, bytes } = await fetchTiles(f, merged);
    await merged.close(osm3s);
    const about = {
      source: "openstreetmap" as const,
      licence: LICENCES.openstreetmap,
      place: f.place.label,
      query: placeQuery(f),
      tiles,
      ...(osm3s.timestamp_osm_base === undefined ? {} : { dataTime: osm3s.timestamp_osm_base }),
      endpoint: f.client.endpoint,
      fetchedAt: new Date().toISOString(),
      counts: { elements: merged.count, bytes },
    };
    return { file: keep(f.dir, name, about), about };
  } catch (error) {
    await merged.abandon();
    discardPartial(f.dir, name);
    throw error instanceof Error ? diskError(error) : error;
  }
}

/** The place's answers, tile by tile while the server refuses an area as too large. */
async function fetchTiles(f: OsmFetch, merged: MergedAnswer): Promise<{ osm3s: Osm3s; tiles: number; bytes: number }> {
  const host = hostOf(f.client.endpoint);
  const queue: { tile: Box | undefined; depth: number }[] = [{ tile: undefined, depth: 0 }];
  let osm3s: Osm3s = {};
  let tiles = 0;
  let before = 0;
  let bytes = 0;
  f.progress.phase(`downloading the venues of ${f.place.label} from ${host}`);
  const onProgress = (b: number) => f.progress.tick(merged.count, megabytes(before + (bytes = b)));
  while (queue.length > 0) {
    const { tile, depth } = queue.shift() ?? { tile: undefined, depth: 0 };
    try {
      osm3s = await runQuery(placeQuery(f, tile), { ...f.client, onProgress }, (e) => merged.add(e));
      tiles++;
    } catch (error) {
      if (!(error instanceof TooLarge)) throw error;
      if (depth >= MAX_DEPTH)
        throw new FetchError(`${host} refuses even a tile of 1/${4 ** depth} of the area: ${error.message}`);
      const parts = quarters(tile ?? f.place.box).filter(f.hasPlaces);
      f.client.say(
        `${host} refused the area as too large for it (${error.message}): asking for it in ${parts.length} parts`,
      );
      queue.unshift(...parts.map((t) => ({ tile: t, depth: depth + 1 })));
    }
    before += bytes;
    bytes = 0;
  }
  f.progress.end();
  return { osm3s, tiles, bytes: before };
}
