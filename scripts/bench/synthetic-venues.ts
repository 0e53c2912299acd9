/**
 * SYNTHETIC OpenStreetMap-style venues, as a GeoJSON sequence (one Feature per line, as `osmium
 * export -f geojsonseq` writes it) or as one Overpass API JSON document (`{"elements":[…]}`, one
 * JSON value however big), for measuring the import of real-venue files at size:
 * venues spread over the cities of a GeoNames table by population (as the generator spreads its
 * venues), each a few kilometres from its city's centre, half of them naming their city in
 * `addr:city`. Not real places. Memory holds the cities' populations, never the output.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { venueWeight } from "../import/generate/venues.ts";
import { venueCounts } from "../import/generate/counts.ts";
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

/**
 * A venue as a GeoJSON sequence line, or as an element of an Overpass document: a node, or one in
 * five a way as `out body center;` writes it (its node ids and its centre).
 */
function record(format: "geojsonseq" | "overpass", id: number, lat: number, lng: number, tags: Record<string, string>) {
  if (format === "overpass" && id % 5 === 0) {
    const nodes = Array.from({ length: 8 }, (_, i) => 9_000_000_000 + id * 8 + i);
    return JSON.stringify({ type: "way", id, center: { lat, lon: lng }, nodes, tags });
  }
  if (format === "overpass") return JSON.stringify({ type: "node", id, lat, lon: lng, tags });
  const feature = {
    type: "Feature",
    id: `n${id}`,
    geometry: { type: "Point", coordinates: [lng, lat] },
    properties: tags,
  };
  return `\u001e${JSON.stringify(feature)}`;
}

/** The other tags a mapped venue usually carries (so that the files are as big as real ones). */
function addDetails(tags: Record<string, string>, id: number): void {
  tags["addr:street"] = `${WORDS[id % WORDS.length] ?? ""} Street`;
  tags["addr:housenumber"] = String(1 + (id % 240));
  tags["addr:postcode"] = String(10000 + (id % 89999));
  tags.website = `https://venue-${id}.example.org/`;
  tags.opening_hours = "Th-Sa 20:00-04:00";
  tags.wheelchair = id % 3 === 0 ? "yes" : "limited";
}

/** Writes `count` venues to `out`; returns the venues written. */
export async function writeSyntheticVenues(
  source: string,
  out: string,
  count: number,
  seed: string,
  format: "geojsonseq" | "overpass" = "geojsonseq",
): Promise<number> {
  // Weighed as the generator weighs a city, sections too (a file's venues may name any place).
  const weights: number[] = [];
  for await (const cols of cityRows(source))
    weights.push(venueWeight({ population: Number(cols[14] || 0), section: false }));
  const perCity = venueCounts(weights, count);
  const rng = random(seed);
  const output = new ChunkedOutput(out, () => undefined);
  let city = 0;
  let id = 1;
  if (format === "overpass") await output.add('{"version":0.6,"generator":"synthetic","elements":[');
  for await (const cols of cityRows(source)) {
    const [lat, lng, name] = [Number(cols[4]), Number(cols[5]), cols[1] ?? ""];
    for (let i = 0; i < (perCity[city] ?? 0); i++) {
      const [key, value] = pick(rng, TAGS);
      const properties: Record<string, string> = {
        [key]: value,
        name: `${pick(rng, WORDS)} ${pick(rng, NOUNS)} ${id}`,
      };
      if (rng() < 0.5) properties["addr:city"] = name;
      addDetails(properties, id);
      const pointLng = lng + (rng() * 2 - 1) * SPREAD;
      const pointLat = Math.max(-90, Math.min(90, lat + (rng() * 2 - 1) * SPREAD));
      const separator = format === "overpass" && id > 1 ? "," : "";
      await output.add(`${separator}${record(format, id++, pointLat, pointLng, properties)}`);
    }
    city++;
  }
  if (format === "overpass") await output.add("]}");
  await output.close();
  return id - 1;
}
