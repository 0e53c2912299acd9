/** The benchmark's figures as Markdown tables (docs/benchmarks.md, and the console). */
import type { BenchResults, ImportFigures, ScaleResults } from "./results.ts";
import { fuzzyCost, type Target } from "./targets.ts";

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const pct = (part: number, whole: number) => `${Math.round((part / Math.max(whole, 1)) * 100)} %`;

export function table(head: string[], align: string[], rows: (string | number)[][]): string[] {
  return [`| ${head.join(" | ")} |`, `|${align.join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)];
}

function importsTable(imports: readonly ImportFigures[]): string[] {
  return table(
    ["Import", "time", "peak RSS", "SQLite file"],
    ["---", "---:", "---:", "---:"],
    imports.map((i) => [
      `${int(i.venues)} venues + ${int(i.cities)} cities`,
      i.seconds >= 120 ? `${fmt(i.seconds / 60)} min` : `${fmt(i.seconds)} s`,
      `${int(i.peakMiB)} MiB`,
      i.sizeMiB >= 1024 ? `${fmt(i.sizeMiB / 1024, 2)} GiB` : `${int(i.sizeMiB)} MiB`,
    ]),
  );
}

function phasesTable(imp: ImportFigures): string[] {
  return table(
    ["Phase", "time", "rows/s"],
    ["---", "---:", "---:"],
    imp.phases
      .filter((p) => p.seconds >= 0.05)
      .map((p) => [p.name, `${fmt(p.seconds)} s`, p.rows > 0 && p.seconds > 0 ? int(p.rows / p.seconds) : ""]),
  );
}

function sizesTable(sizes: BenchResults["sizes"]): string[] {
  return table(
    ["Table (with its indexes)", "MiB", "share"],
    ["---", "---:", "---:"],
    sizes.tables
      .filter((t) => t.mib >= 0.5)
      .map((t) => [t.table, fmt(t.mib), `${Math.round((t.mib / sizes.total) * 100)} %`]),
  );
}

/** Throughput and the single-connection latency of the baselines, hits and misses. */
function throughputTable(r: BenchResults): string[] {
  const sameBody = r.baselineSameBody.requestsPerSecond;
  const base = r.baseline.requestsPerSecond;
  return table(
    ["", "req/s (32 connections, median of 3 × 5 s)", "ratio", "p50 ms (1 connection)", "p99 ms (1 connection)"],
    ["---", "---:", "---:", "---:", "---:"],
    [
      ["empty worker (baseline)", fmt(base, 0), "1.00", r.baselineLatency.p50, r.baselineLatency.p99],
      [`empty worker answering ${r.hitBytes} bytes`, fmt(sameBody, 0), fmt(sameBody / base, 2), "", ""],
      [
        `cache hits (\`/1.0/search/cities?name=paris\`, ${r.hitBytes} bytes)`,
        fmt(r.hits.requestsPerSecond, 0),
        `${fmt(r.hits.requestsPerSecond / base, 2)} of the empty worker`,
        r.hitsLatency.p50,
        r.hitsLatency.p99,
      ],
      [
        "empty worker running `SELECT 1` on D1 (the floor of a miss)",
        fmt(r.d1FloorThroughput.requestsPerSecond, 0),
        "1.00",
        r.d1Floor.p50,
        r.d1Floor.p99,
      ],
      [
        "cache misses, every class in turn",
        fmt(r.missThroughput.requestsPerSecond, 0),
        `${fmt(r.missThroughput.requestsPerSecond / r.d1FloorThroughput.requestsPerSecond, 2)} of \`SELECT 1\``,
        "",
        "",
      ],
    ],
  );
}

/** Each query class as a miss: latency, rows read, raw SQL time, and the typo classes against their strict ones. */
function classesTable(r: BenchResults): string[] {
  const byId = new Map(r.classes.map((c) => [c.id, c]));
  const floor = r.d1Floor.p50;
  const head = ["Cache misses, one request at a time", "p50 ms", "p99 ms", "rows_read", "raw SQL ms"];
  return table(
    [...head, "(p50 − D1 floor) ÷ raw SQL", "vs. its strict class (measured in turn)"],
    ["---", "---:", "---:", "---:", "---:", "---:", "---"],
    r.classes.map((c) => {
      const strict = c.strictLatency ?? (c.strictPair === undefined ? undefined : byId.get(c.strictPair));
      return [
        `${c.label}: \`${c.url}\``,
        c.p50,
        c.p99,
        c.rowsRead,
        fmt(c.rawSqlMs, 2),
        c.rawSqlMs > 0 ? fmt(Math.max(c.p50 - floor, 0) / c.rawSqlMs, 0) : "–",
        strict ? `p50 ${fmt(c.p50 / strict.p50, 2)} ×, p99 ${fmt(c.p99 / strict.p99, 2)} ×` : "",
      ];
    }),
  );
}

export function recallTable(r: Pick<BenchResults, "recall">): string[] {
  return table(
    [
      "Typo recall (names with typos, page 1 of the answer)",
      "queries",
      "on page 1",
      "missed: the typo spells another name (a strict answer)",
      "first",
      "first, of those their own name puts first",
      "drawn but not found by their own name",
    ],
    ["---", "---:", "---:", "---:", "---:", "---:", "---:"],
    r.recall.map((x) => [
      `${x.resource}, ${x.edits}`,
      x.queries,
      pct(x.page1, x.queries),
      x.strictElsewhere,
      pct(x.first, x.queries),
      `${pct(x.firstOfThose, x.firstByName)} of ${x.firstByName}`,
      x.ambiguous,
    ]),
  );
}

/** Venues found by another of their names (bench/results.json aliases), when measured. */
function aliasLines(r: BenchResults): string[] {
  const a = r.aliases;
  if (a === undefined) return [];
  return [
    `Venues found by another of their names (${a.venues} generated venues named in Cyrillic or Japanese script, shown in Latin letters; each searched by both): ` +
      `rows_read by the other name ÷ by the shown name, median ${fmt(a.medianRatio, 2)}, at most ${fmt(a.maxRatio, 2)}; ` +
      `${int(a.rowsByAlias)} rows in all by the other names, ${int(a.rowsByName)} by the shown ones; ${a.foundByBoth} of ${a.venues} on page 1 by both.`,
    "",
  ];
}

export function benchText(r: BenchResults, targets: readonly Target[]): string {
  const million = r.imports.find((i) => i.venues === 1_000_000);
  const cost = fuzzyCost(million, r.sizes);
  const lines = [
    `Measured ${r.date} on ${r.machine}, with \`npm run bench\` (1,000,000 venues, 199,568 cities).`,
    "",
    ...throughputTable(r),
    "",
    ...classesTable(r),
    "",
    ...recallTable(r),
    "",
    ...aliasLines(r),
    ...importsTable(r.imports),
    "",
    `The 1M-venue database: ${int(r.sizes.total)} MiB, of which the typo vocabulary and its index take ${fmt(cost.mib)} MiB (${Math.round(cost.sizeShare * 100)} % on top of the rest).`,
    "",
    ...sizesTable(r.sizes),
    "",
    `Worker bundle: ${fmt(r.bundle.kib)} KiB, **${fmt(r.bundle.gzipKib)} KiB gzip**.`,
    "",
    "Targets:",
    "",
    ...targets.map(([text, met]) => `- ${met ? "met" : "**missed**"}: ${text}`),
  ];
  if (million !== undefined) lines.push("", "The 1M import, phase by phase:", "", ...phasesTable(million));
  return lines.join("\n");
}

export function scaleText(s: ScaleResults, million: BenchResults | null, targets: readonly Target[]): string {
  const byId = new Map((million?.classes ?? []).map((c) => [c.id, c]));
  const big = s.imports.find((i) => i.venues === 10_000_000);
  return [
    `Measured ${s.date} on ${s.machine}, with \`npm run bench -- --scale\` (10,000,000 generated venues on the SYNTHETIC 5,000,000-city file of \`npm run data:scale\`).`,
    "",
    ...importsTable(s.imports),
    "",
    ...table(
      ["Cache misses at scale, one request at a time", "p50 ms", "× 1M", "p99 ms", "rows_read", "× 1M", "raw SQL ms"],
      ["---", "---:", "---:", "---:", "---:", "---:", "---:"],
      s.classes.map((c) => {
        const m = byId.get(c.id);
        return [
          `${c.label}: \`${c.url}\``,
          c.p50,
          m ? fmt(c.p50 / m.p50, 2) : "",
          c.p99,
          c.rowsRead,
          m ? fmt(c.rowsRead / Math.max(m.rowsRead, 1), 2) : "",
          fmt(c.rawSqlMs, 2),
        ];
      }),
    ),
    "",
    ...table(
      ["At scale, 32 connections (median of 3 × 5 s)", "req/s", "ratio"],
      ["---", "---:", "---:"],
      [
        ["empty worker running `SELECT 1` on D1", fmt(s.d1FloorThroughput.requestsPerSecond, 0), "1.00"],
        [
          "cache misses, every class in turn",
          fmt(s.missThroughput.requestsPerSecond, 0),
          fmt(s.missThroughput.requestsPerSecond / s.d1FloorThroughput.requestsPerSecond, 2),
        ],
      ],
    ),
    "",
    `The scale database: ${fmt(s.sizes.total / 1024, 2)} GiB.`,
    "",
    ...sizesTable(s.sizes),
    "",
    "Targets:",
    "",
    ...targets.map(([text, met]) => `- ${met ? "met" : "**missed**"}: ${text}`),
    ...(big ? ["", "The 10M import, phase by phase:", "", ...phasesTable(big)] : []),
  ].join("\n");
}
