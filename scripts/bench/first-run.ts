/**
 * `npm run bench -- --first [--url URL --label NAME]`: is the first result the one a person means
 * (docs/api.md#order)? On the default data (or the server at URL, to measure another version of
 * the worker), for the whole name of each of the 1,000 largest cities of cities500:
 *
 * - first: the first result is the largest city called that (its GeoNames or ASCII name is the
 *   text), or a city 31.6 times larger than it that another of its names calls that;
 * - other before own: on page 1, a city found only by another name (and not 31.6 times larger than
 *   every one found by its own) comes before one found by its own;
 * - typos: one-letter typos (scripts/bench/recall.ts) of cities over 15,000 people that their
 *   correct name puts first, put first too.
 *
 * Which name found a city is told by a brute force over the file's names (test/support/order-brute-force.ts).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { defaultSources } from "../import/sources/resolve.ts";
import { stopDevServers } from "../tools/dev-server.ts";
import { log, machine, report, startMissWorker, timedImport, TMP } from "./common.ts";
import { measureRecall, sampleCities } from "./recall.ts";
import { mayHold, searchOrder } from "../../test/support/order-brute-force.ts";
import { citiesOf, type Candidate } from "../../test/support/suggest-brute-force.ts";

const LARGEST = 1000;
const TYPO_SAMPLES = 75;
const SEED = "bench first";

interface FirstFigures {
  texts: number;
  first: number;
  otherBeforeOwn: number;
  typoQueries: number;
  typoFirstByName: number;
  typoFirstOfThose: number;
  /** Typos that spell another name: answered strictly, as docs/api.md#typo-tolerance has it. */
  typoStrict: number;
}

async function page1(base: string, text: string): Promise<string[]> {
  const res = await fetch(`${base}/1.0/search/cities?name=${encodeURIComponent(text)}`, {
    headers: { Accept: "application/json" },
  });
  if (res.status !== 200) return [];
  return ((await res.json()) as { cities: { id: string }[] }).cities.map((c) => c.id);
}

/** The city a person means by a whole name: the largest called that, or one far larger another of whose names is it. */
function meant(order: ReturnType<typeof searchOrder>, byId: Map<string, Candidate>): string | undefined {
  const exact = order.filter((r) => r.tier === 0);
  const called = exact.find((r) => !r.promoted && r.key === 0);
  const larger = exact.find((r) => r.promoted);
  return (
    larger !== undefined && (byId.get(larger.id)?.pos ?? 0) < (byId.get(called?.id ?? "")?.pos ?? Infinity)
      ? larger
      : called
  )?.id;
}

async function measure(base: string): Promise<FirstFigures> {
  const sources = defaultSources();
  const all = citiesOf(sources.cities, sources.localized);
  const byId = new Map(all.map((c) => [c.id, c]));
  const candidates = mayHold(all);
  const texts = [...new Set(all.slice(0, LARGEST).map((c) => c.names[0]?.[0] ?? ""))].filter((t) => t !== "");
  let first = 0;
  let otherBeforeOwn = 0;
  for (const text of texts) {
    const order = searchOrder(candidates(text), "cities", { text });
    const keys = new Map(order.map((r) => [r.id, r.key]));
    const ids = await page1(base, text);
    if (ids[0] !== undefined && ids[0] === meant(order, byId)) first++;
    const own = ids.map((id) => (keys.get(id) ?? 0) < 3);
    if (own.some((o, i) => !o && own.slice(i + 1).some(Boolean))) otherBeforeOwn++;
  }
  log("one-letter typos of cities over 15,000 people");
  const samples = await sampleCities(sources.cities, TYPO_SAMPLES, SEED);
  const [typos] = await measureRecall(base, "cities", samples, SEED);
  return {
    texts: texts.length,
    first,
    otherBeforeOwn,
    typoQueries: typos?.queries ?? 0,
    typoFirstByName: typos?.firstByName ?? 0,
    typoFirstOfThose: typos?.firstOfThose ?? 0,
    typoStrict: typos?.strictOfThose ?? 0,
  };
}

const pct = (n: number, of: number) => `${n} of ${of} (${((100 * n) / Math.max(1, of)).toFixed(1)} %)`;

/** `url`: measure the worker there (default: this checkout's, on the default data); `label`: its section of docs/benchmarks.md (first-<label>). */
export async function benchFirst(url: string | undefined, label: string | undefined): Promise<void> {
  let base = url;
  if (base === undefined) {
    const state = join(TMP, "first-state");
    rmSync(state, { recursive: true, force: true });
    log("importing the default data (250,000 venues) into bench/tmp/first-state");
    await timedImport(250_000, ["--persist-to", state]);
    base = await startMissWorker(8794, state);
  }
  try {
    const f = await measure(base);
    const typoFair = f.typoFirstByName - f.typoStrict;
    const text = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} on ${machine()}, ${url ?? "the default data"} (\`npm run bench -- --first\`).`,
      "",
      "| whole names of the 1,000 largest cities | |",
      "| --- | ---: |",
      `| the first result is the largest city called that (or one 31.6 × larger known by it) | ${pct(f.first, f.texts)} |`,
      `| page 1 lists a city found only by another name before one found by its own | ${pct(f.otherBeforeOwn, f.texts)} |`,
      `| one-letter typos (${f.typoQueries}) of cities their name puts first, put first | ${pct(f.typoFirstOfThose, f.typoFirstByName)} |`,
      `| the same, leaving out the ${f.typoStrict} that spell another name (answered strictly) | ${pct(f.typoFirstOfThose, typoFair)} |`,
    ].join("\n");
    await report(
      text,
      [
        ["the first result is the one meant for at least 99 % of the largest cities", f.first >= 0.99 * f.texts],
        ["no city found only by another name before one found by its own", f.otherBeforeOwn === 0],
        [
          "one-letter typos first at least 97 % of the time (but those that spell another name)",
          f.typoFirstOfThose >= 0.97 * typoFair,
        ],
      ],
      label === undefined ? "first" : `first-${label}`,
    );
  } finally {
    stopDevServers();
  }
}
