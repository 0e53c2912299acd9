/** The figures of `npm run bench -- --places` as Markdown tables, and the targets they are judged by. */
import type { PlaceFigures } from "./places.ts";
import type { RecallFigures } from "./recall.ts";
import { recallTable, table } from "./render.ts";
import type { ClassFigures, ImportFigures } from "./results.ts";
import type { Target } from "./targets.ts";

export interface PlacesResults {
  date: string;
  machine: string;
  import: ImportFigures;
  sets: PlaceFigures[];
  recall: RecallFigures[];
  classes: ClassFigures[];
  seconds: number;
}

const share = (part: number, whole: number) => part / Math.max(whole, 1);
const pct = (x: number) => `${(Math.floor(x * 1000) / 10).toFixed(1)} %`;

const SET_NAMES: Record<PlaceFigures["set"], string> = {
  places: "A place in the text",
  spellings: "Names written the other way",
  precision: "One letter of the place changed",
};

function setsTable(sets: readonly PlaceFigures[]): string[] {
  return table(
    ["Query set (city search)", "queries", "countries", "first: the city meant", "404", "another city first"],
    ["---", "---:", "---:", "---:", "---:", "---:"],
    sets.map((f) => [
      `${SET_NAMES[f.set]}: ${f.form === "all" ? "**all**" : `\`${f.form}\``}`,
      f.queries,
      f.countries,
      pct(share(f.first, f.queries)),
      pct(share(f.notFound, f.queries)),
      `${pct(share(f.otherFirst, f.queries))}${
        f.form === "all" || f.examples.length === 0
          ? ""
          : ` (e.g. ${f.examples
              .slice(0, 2)
              .map((e) => `\`${e}\``)
              .join(", ")})`
      }`,
    ]),
  );
}

function costTable(classes: readonly ClassFigures[]): string[] {
  const byId = new Map(classes.map((c) => [c.id, c]));
  return table(
    [
      "Cache misses, one request at a time",
      "p50 ms",
      "p99 ms",
      "rows_read",
      "D1 round trips",
      "vs. its plain class (measured in turn)",
    ],
    ["---", "---:", "---:", "---:", "---:", "---"],
    classes.map((c) => {
      const plain = c.plainPair === undefined ? undefined : (c.strictLatency ?? byId.get(c.plainPair));
      return [
        `${c.label}: \`${c.url}\``,
        c.p50,
        c.p99,
        c.rowsRead,
        c.roundTrips ?? "",
        plain ? `p50 ${(c.p50 / plain.p50).toFixed(2)} ×, p99 ${(c.p99 / plain.p99).toFixed(2)} ×` : "",
      ];
    }),
  );
}

const whole = (r: PlacesResults, set: PlaceFigures["set"]) => r.sets.find((f) => f.set === set && f.form === "all");
const firstShare = (f: PlaceFigures | undefined) => share(f?.first ?? 0, f?.queries ?? 0);
/** Right: the city meant, or nothing; never another city. */
const rightShare = (f: PlaceFigures | undefined) => share((f?.first ?? 0) + (f?.notFound ?? 0), f?.queries ?? 0);

function recallTargets(r: PlacesResults): Target[] {
  const places = whole(r, "places");
  const spellings = whole(r, "spellings");
  const precision = whole(r, "precision");
  return [
    [
      `recall@1 of a place in the text ≥ 97 % (${pct(firstShare(places))} of ${places?.queries ?? 0} queries in ${places?.countries ?? 0} countries)`,
      firstShare(places) >= 0.97 && (places?.queries ?? 0) >= 1000 && (places?.countries ?? 0) >= 50,
    ],
    [
      `recall@1 of names written the other way ≥ 97 % (${pct(firstShare(spellings))} of ${spellings?.queries ?? 0})`,
      firstShare(spellings) >= 0.97,
    ],
    [
      `precision with one letter of the place changed: the city meant or a 404 in ≥ 99 % (${pct(rightShare(precision))})`,
      rightShare(precision) >= 0.99,
    ],
  ];
}

function typoTargets(r: PlacesResults): Target[] {
  const recall = (resource: string) => r.recall.find((x) => x.resource === resource && x.edits.startsWith("one"));
  const first = (x: RecallFigures | undefined) => share(x?.first ?? 0, x?.queries ?? 0);
  const ofThose = (x: RecallFigures | undefined) => share(x?.firstOfThose ?? 0, x?.firstByName ?? 0);
  const [cities, venues] = [recall("cities"), recall("venues")];
  return [
    [
      `typo recall, one edit, first: cities ≥ 95 % (${pct(first(cities))}; ${pct(ofThose(cities))} of those their own name puts first), venues ≥ 90 % (${pct(first(venues))}; ${pct(ofThose(venues))})`,
      first(cities) >= 0.95 && first(venues) >= 0.9,
    ],
  ];
}

function costTargets(r: PlacesResults): Target[] {
  const reading = r.classes.filter((c) => c.plainPair !== undefined);
  const ratio = Math.max(...reading.map((c) => c.p50 / (c.strictLatency?.p50 ?? NaN)));
  const strictMiss = Math.max(...r.classes.filter((c) => c.id.includes("fuzzy")).map((c) => c.roundTrips ?? NaN));
  const trips = Math.max(...reading.map((c) => c.roundTrips ?? NaN));
  return [
    [
      `a place reading costs at most one D1 round trip more than a strict miss (${trips} against ${strictMiss})`,
      trips <= strictMiss + 1,
    ],
    [`a place reading's p50 ≤ 1.5 × the plain name class's (worst ${ratio.toFixed(2)} ×)`, ratio <= 1.5],
  ];
}

export function placesTargets(r: PlacesResults): Target[] {
  return [...recallTargets(r), ...typoTargets(r), ...costTargets(r)];
}

export function placesText(r: PlacesResults, targets: readonly Target[]): string {
  return [
    `Measured ${r.date} on ${r.machine}, with \`npm run bench -- --places\` (the default data: ${r.import.cities.toLocaleString("en-US")} cities, ${r.import.venues.toLocaleString("en-US")} venues; every request a miss).`,
    "",
    ...setsTable(r.sets),
    "",
    ...recallTable(r),
    "",
    ...costTable(r.classes),
    "",
    "Targets:",
    "",
    ...targets.map(([text, met]) => `- ${met ? "met" : "**missed**"}: ${text}`),
  ].join("\n");
}
