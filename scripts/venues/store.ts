/**
 * Where downloaded venues are kept (docs/import.md#the-downloads): `data/venues/` (git-ignored),
 * each download a venue file the import reads as it reads any (an Overpass answer, MusicBrainz dump
 * lines) with a sidecar `<file>.about.json` saying what produced it: the source, its licence, the
 * place and query or the dump, the endpoint, when, and the counts. Files are written under a
 * temporary name and renamed when complete, so a broken download never looks like a finished one.
 * The import (`npm start`, `npm run venues`) reads the list of downloads from here.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../tools/project.ts";

export const DEFAULT_DIR = join(ROOT, "data", "venues");
const ABOUT = ".about.json";

export interface About {
  source: "openstreetmap" | "musicbrainz";
  licence: string;
  /** OpenStreetMap: the place as read, and the query (of the first tile, when tiled). */
  place?: string;
  query?: string;
  tiles?: number;
  /** MusicBrainz: the dump folder, and the archive's SHA-256. */
  dump?: string;
  sha256?: string;
  /** When the data was current at its source (Overpass's timestamp_osm_base, the dump's date). */
  dataTime?: string;
  endpoint: string;
  fetchedAt: string;
  counts: Record<string, number>;
}

export const LICENCES = {
  openstreetmap: "ODbL 1.0: © OpenStreetMap contributors (https://www.openstreetmap.org/copyright)",
  musicbrainz: "CC0 1.0: MusicBrainz core data (https://musicbrainz.org/doc/About/Data_License)",
} as const;

export interface Download {
  file: string;
  about: About;
}

/** The downloads kept in `dir`, by file name; a file whose sidecar is missing or broken is not one. */
export function downloads(dir = DEFAULT_DIR): Download[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(ABOUT))
    .sort()
    .flatMap((name) => {
      const file = join(dir, name.slice(0, -ABOUT.length));
      try {
        return existsSync(file) ? [{ file, about: JSON.parse(readFileSync(join(dir, name), "utf8")) as About }] : [];
      } catch {
        return [];
      }
    });
}

/** What a download of `name` is kept as, and its sidecar. */
export function downloadPath(dir: string, name: string): { file: string; about: string; partial: string } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  return { file, about: `${file}${ABOUT}`, partial: join(dir, `.${name}.partial`) };
}

/** Makes a finished download the kept one: its sidecar first, then the file in one rename. */
export function keep(dir: string, name: string, about: About): string {
  const path = downloadPath(dir, name);
  writeFileSync(path.about, `${JSON.stringify(about, null, 2)}\n`);
  renameSync(path.partial, path.file);
  return path.file;
}

/** The sidecar of a kept download, if any. */
export function aboutOf(dir: string, name: string): About | null {
  return downloads(dir).find((d) => d.file === join(dir, name))?.about ?? null;
}

export const discardPartial = (dir: string, name: string): void =>
  rmSync(downloadPath(dir, name).partial, { force: true });
