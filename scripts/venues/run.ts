/**
 * One `npm run venues`: read the place (osm), fetch into data/venues/, import the downloads with
 * the files the served import read (scripts/import/start-data.ts). Every failure is one line
 * (FetchError, ImportError) and changes nothing served.
 */
import Database from "better-sqlite3";
import type { Progress } from "../import/progress.ts";
import { Problems } from "../import/problems.ts";
import { importWithDownloads, servedWithData } from "../import/start-data.ts";
import { readRegionCodes } from "../import/sources/region-codes.ts";
import { defaultSources } from "../import/sources/resolve.ts";
import { DEFAULT_SELECTION } from "../import/sources/venue-selection.ts";
import { summaryText } from "../import/summary.ts";
import type { VenuesCommand } from "./cli.ts";
import { hostOf, megabytes, userAgent } from "./http.ts";
import { fetchMusicBrainz } from "./musicbrainz/dump.ts";
import { fetchOsm, placeQuery } from "./osm/fetch.ts";
import type { Box } from "./osm/query.ts";
import { inBox } from "./osm/tiles.ts";
import { readPlace, type FetchPlace } from "./place.ts";
import type { Download } from "./store.ts";

const n = (x: number) => x.toLocaleString("en-US");

/** Whether the place has a populated place in a box: a tile without one is not asked for. */
function placesIn(db: Database.Database, place: FetchPlace): (box: Box) => boolean {
  const all = db.prepare(
    `SELECT lat, lng FROM cities WHERE country_code = ? AND (? IS NULL OR admin1_code = ?) AND lat BETWEEN ? AND ?`,
  );
  return (box) => {
    if (place.kind === "box" || place.kind === "city") return true;
    const admin1 = place.kind === "region" ? place.admin1Code : null;
    const rows = all.all(place.countryCode, admin1, admin1, box.south, box.north) as { lat: number; lng: number }[];
    return rows.some((r) => inBox(box, r.lat, r.lng));
  };
}

async function fetchPlace(command: VenuesCommand, progress: Progress): Promise<Download | null> {
  const path = await servedWithData(command.target, progress);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const regionCodes = await readRegionCodes(defaultSources().regionCodes, new Problems(false));
    const { place, alsoRead } = await readPlace({ db, regionCodes }, command.place);
    progress.line(
      `"${command.place}" is ${place.label}${alsoRead === null ? "" : `; not ${alsoRead} (name that one otherwise to fetch it)`}.`,
    );
    const settings = { timeout: command.timeout, maxsize: command.maxsize };
    const fetch = { place, selection: DEFAULT_SELECTION, settings };
    if (command.dryRun) {
      progress.line(
        `The query, sent to ${command.endpoint}interpreter (in tiles if the server finds the area too large):\n${placeQuery(fetch)}`,
      );
      return null;
    }
    const client = {
      endpoint: command.endpoint,
      userAgent: userAgent(command.contact),
      retries: command.retries,
      pauseAfterRefusalMs: command.pauseSeconds * 1000,
      timeoutSeconds: command.timeout,
      say: (line: string) => progress.line(line),
    };
    return await fetchOsm({ ...fetch, client, dir: command.dir, hasPlaces: placesIn(db, place), progress });
  } finally {
    db.close();
  }
}

async function fetchDump(command: VenuesCommand, progress: Progress): Promise<Download | null> {
  if (command.dryRun) {
    progress.line(
      `Would read ${command.mirror}LATEST (the newest dump folder), then fetch <folder>/SHA256SUMS and <folder>/place.tar.xz, ` +
        `and keep mbdump/place from it in ${command.dir}.`,
    );
    return null;
  }
  const { download } = await fetchMusicBrainz({
    mirror: command.mirror,
    userAgent: userAgent(command.contact),
    dir: command.dir,
    retries: command.retries,
    say: (line) => progress.line(line),
    progress,
  });
  return download;
}

function downloadLine(d: Download): string {
  const c = d.about.counts;
  const what =
    d.about.source === "openstreetmap"
      ? `${n(c.elements ?? 0)} OpenStreetMap elements (${megabytes(c.bytes ?? 0)} in ${n(d.about.tiles ?? 1)} queries to ${hostOf(d.about.endpoint)}; data of ${d.about.dataTime ?? "?"})`
      : `${n(c.places ?? 0)} MusicBrainz places of the dump ${d.about.dump ?? "?"}`;
  return `Kept ${what} in ${d.file} (${d.about.licence}).`;
}

export async function runVenues(command: VenuesCommand, progress: Progress): Promise<void> {
  const download = command.source === "osm" ? await fetchPlace(command, progress) : await fetchDump(command, progress);
  if (download === null) return;
  progress.line(downloadLine(download));
  if (!command.importAfter) {
    progress.line("Not imported (--no-import): the next `npm start` imports it.");
    return;
  }
  const summary = await importWithDownloads(command.target, command.dir, progress);
  progress.line(summaryText(summary, command.target.kind === "file" ? command.target.path : "the local D1 database"));
  if (command.target.kind === "local") progress.line("`npm start` serves them now.");
}
