/**
 * A SYNTHETIC OpenStreetMap-style GeoJSON sequence of venues (one Feature per line, as
 * `osmium export -f geojsonseq` writes it), for measuring the import of real-venue files at size:
 * venues spread over the cities of a GeoNames table by population (as the generator spreads its
 * venues), each a few kilometres from its city's centre, half of them naming their city in
 * `addr:city`. Not real places. Memory holds the cities' populations, never the output.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { venueCounts } from "../import/generate/venues.ts";
import { ChunkedOutput } from "../tools/chunked-output.ts";
import { pick, random } from "../tools/random.ts";

const TAGS: [string, string][] = [
  ["amenity", "music_venue"],
  ["amenity", "nightclub"],
  ["amenity", "theatre"],
  ["amenity", "concert_hall"],
  ["leisure", "stadium"],
];
const WORDS = [
  "Blue",
  "Red",
  "Golden",
  "Velvet",
  "Electric",
  "Royal",
  "Grand",
  "Old",
  "Neon",
  "Union",
  "Crystal",
  "Iron",
];
const NOUNS = ["Room", "Hall", "Club", "Arena", "Theatre", "Stage", "Lounge", "Garage", "Factory", "Ballroom"];
/** Venues lie within this many degrees of their city's centre (about 3 km). */
const SPREAD = 0.03;

async function* cityRows(path: string): AsyncGenerator<string[]> {
  for await (const line of createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity })) {
    const cols = line.split("\t");
    if (cols.length === 19 && cols[6] === "P") yield cols;
  }
}

/** Writes `count` venue features to `out`; returns the features written. */
export async function writeSyntheticVenues(source: string, out: string, count: number, seed: string): Promise<number> {
  const populations: number[] = [];
  for await (const cols of cityRows(source)) populations.push(Number(cols[14] || 0));
  const perCity = venueCounts(populations, count);
  const rng = random(seed);
  const output = new ChunkedOutput(out, () => undefined);
  let city = 0;
  let id = 1;
  for await (const cols of cityRows(source)) {
    const [lat, lng, name] = [Number(cols[4]), Number(cols[5]), cols[1] ?? ""];
    for (let i = 0; i < (perCity[city] ?? 0); i++) {
      const [key, value] = pick(rng, TAGS);
      const properties: Record<string, string> = {
        [key]: value,
        name: `${pick(rng, WORDS)} ${pick(rng, NOUNS)} ${id}`,
      };
      if (rng() < 0.5) properties["addr:city"] = name;
      const point = [lng + (rng() * 2 - 1) * SPREAD, Math.max(-90, Math.min(90, lat + (rng() * 2 - 1) * SPREAD))];
      await output.add(
        `\u001e${JSON.stringify({ type: "Feature", id: `n${id++}`, geometry: { type: "Point", coordinates: point }, properties })}`,
      );
    }
    city++;
  }
  await output.close();
  return id - 1;
}
