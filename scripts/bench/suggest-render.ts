/** The suggestions benchmark's tables and targets (suggest-run.ts; docs/benchmarks.md#suggestions). */
import type { ClassFigures, ImportFigures } from "./results.ts";
import type { LettersFigures } from "./suggest-letters.ts";
import type { ListFigures } from "./suggest-lists.ts";
import type { Target } from "./targets.ts";

interface SuggestRun {
  label: string;
  imported: ImportFigures;
  letters: LettersFigures[];
  /** The lists around the first suggestion (the default data's cities). */
  lists?: ListFigures;
  classes: ClassFigures[];
  largestBytes: number;
}

export interface SuggestResults {
  date: string;
  machine: string;
  runs: SuggestRun[];
  /** p50 ms of a suggestion's hit and a search's hit through the edge cache. */
  hits: { suggest: number; search: number };
  seconds: number;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function lettersTable(runs: readonly SuggestRun[]): string[] {
  const rows = runs.flatMap((r) =>
    r.letters.map(
      (l) =>
        `| ${l.resource}, ${r.label} | ${l.targets} | ${l.meanLetters.toFixed(2)} | ${l.meanOracle.toFixed(2)} | ${(l.meanLetters / l.meanOracle).toFixed(3)} | ${pct(l.withinOracleAndOne)} | ${l.neverFirst} |`,
    ),
  );
  return [
    "| Typed | Targets | Mean letters | Oracle's | Ratio | First within the oracle's + 1 | Never first |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
  ];
}

function costTable(runs: readonly SuggestRun[]): string[] {
  const rows = runs.flatMap((r) =>
    r.classes.map(
      (c) =>
        `| ${c.label}, ${r.label} | \`${c.url}\` | ${c.p50} | ${c.strictLatency?.p50 ?? "-"} | ${c.p99} | ${c.rowsRead} |`,
    ),
  );
  return [
    "| Suggestion (a miss) | URL | p50 ms | the name search's p50 ms | p99 ms | rows read |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...rows,
  ];
}

function listsLines(runs: readonly SuggestRun[]): string[] {
  return runs.flatMap((r) => {
    const l = r.lists;
    if (l === undefined) return [];
    return [
      `The lists around the first suggestion, ${r.label}: ${l.texts} texts (every prefix from 2 letters of the 500 most populous target cities), ` +
        `\`/1.0/suggest/cities\` at limits 8 and 20. ${l.fromOneName} of ${l.suggestions} cities listed (${pct(l.fromOneName / Math.max(l.suggestions, 1))}) ` +
        `hold the words typed in one of their names (${l.fuzzy} answers forgave typos and are left out); ` +
        `the first 8 at limit 20 are the list at limit 8 for ${l.sameAtLimits} texts (${pct(l.sameAtLimits / Math.max(l.texts, 1))}).` +
        (l.strays.length > 0 ? ` Strays: ${l.strays.join("; ")}.` : "") +
        (l.reshuffled.length > 0 ? ` Reshuffled: ${l.reshuffled.join("; ")}.` : ""),
      "",
      `Each typed word its own word: ${l.readTwice} texts list a city that holds the words only with a word read twice` +
        (l.twice.length > 0 ? ` (${l.twice.join("; ")})` : "") +
        `. Why each is there: of the ${l.seen} cities listed at limit 8, ${l.notShown} (${pct(l.notShown / Math.max(l.seen, 1))}) are matched by a name not shown; ` +
        `\`matched.name\` names that name for ${l.named} of them (${pct(l.named / Math.max(l.notShown, 1))}).` +
        (l.unnamed.length > 0 ? ` Not named: ${l.unnamed.join("; ")}.` : ""),
      "",
    ];
  });
}

export function suggestText(r: SuggestResults, targets: readonly Target[]): string {
  return [
    `Measured ${r.date} on ${r.machine} with \`npm run bench -- --suggest\` (${r.seconds} s).`,
    "",
    ...lettersTable(r.runs),
    "",
    ...listsLines(r.runs),
    ...costTable(r.runs),
    "",
    `A hit through the edge cache: p50 ${r.hits.suggest} ms (a search's hit: ${r.hits.search} ms). The largest answer of 8 suggestions: ${Math.max(...r.runs.map((x) => x.largestBytes))} bytes of JSON.`,
    "",
    ...targets.map(([text, met]) => `- ${met ? "met" : "**missed**"}: ${text}`),
  ].join("\n");
}

/** The lists' targets: every suggestion from one name, the same list at every limit. */
function listTargets(r: SuggestResults): Target[] {
  return r.runs.flatMap((x): Target[] => {
    const l = x.lists;
    if (l === undefined) return [];
    return [
      [
        `${x.label}: 100 % of the cities listed hold the words typed in one name (${l.fromOneName} of ${l.suggestions})`,
        l.fromOneName === l.suggestions,
      ],
      [
        `${x.label}: 100 % of the texts list the same first 8 at limits 8 and 20 (${l.sameAtLimits} of ${l.texts})`,
        l.sameAtLimits === l.texts,
      ],
      [`${x.label}: no text lists a city with a word read twice (${l.readTwice})`, l.readTwice === 0],
      [
        `${x.label}: 100 % of the cities matched by a name not shown say it in \`matched.name\` (${l.named} of ${l.notShown})`,
        l.named === l.notShown,
      ],
    ];
  });
}

/** A miss against the run before: p50 and rows read of each class no more than they were (p50 within 5 %: the machine's noise). */
function costTargets(r: SuggestResults, before: SuggestResults | null): Target[] {
  if (before === null) return [];
  const earlier = new Map(before.runs.flatMap((x) => x.classes.map((c) => [`${x.label}|${c.label}`, c])));
  const worse = r.runs.flatMap((x) =>
    x.classes.flatMap((c) => {
      const b = earlier.get(`${x.label}|${c.label}`);
      if (b === undefined || (c.rowsRead <= b.rowsRead && c.p50 <= 1.05 * b.p50)) return [];
      return [`${c.label}, ${x.label}: ${c.p50} ms / ${c.rowsRead} rows against ${b.p50} ms / ${b.rowsRead} rows`];
    }),
  );
  return [
    [
      `a miss costs no more than on ${before.date}, p50 and rows read (${worse.length === 0 ? "every class" : `more: ${worse.join("; ")}`})`,
      worse.length === 0,
    ],
  ];
}

export function suggestTargets(r: SuggestResults, before: SuggestResults | null = null): Target[] {
  const letters = r.runs.flatMap((x) => x.letters.map((l) => ({ ...l, label: `${l.resource}, ${x.label}` })));
  const classes = r.runs.flatMap((x) => x.classes);
  const slower = classes.filter((c) => c.p50 > (c.strictLatency?.p50 ?? Infinity));
  const largest = Math.max(...r.runs.map((x) => x.largestBytes));
  const defaults = r.runs[0]?.imported;
  return [
    ...letters.map((l): Target => [
      `${l.label}: mean letters ≤ 1.05 × the oracle's (${(l.meanLetters / l.meanOracle).toFixed(3)}), first within the oracle's + 1 in ≥ 97 % (${pct(l.withinOracleAndOne)}), never first: none (${l.neverFirst}${l.never.length > 0 ? `: ${l.never.slice(0, 5).join("; ")}` : ""})`,
      l.meanLetters <= 1.05 * l.meanOracle && l.withinOracleAndOne >= 0.97 && l.neverFirst === 0,
    ]),
    [
      `a suggestion's miss p50 ≤ the plain name search's (${slower.length === 0 ? "every class" : `slower: ${slower.map((c) => `${c.label} ${c.p50} > ${c.strictLatency?.p50} ms`).join("; ")}`})`,
      slower.length === 0,
    ],
    [
      `a hit at the edge cache's own floor: ≤ 1.1 × a search's hit (${r.hits.suggest} ms, ${r.hits.search} ms)`,
      r.hits.suggest <= 1.1 * r.hits.search,
    ],
    ...listTargets(r),
    ...costTargets(r, before),
    [`8 suggestions ≤ 2 KB of JSON (${largest} bytes)`, largest <= 2048],
    [`the default import ≤ 60 s (${defaults?.seconds.toFixed(1)} s)`, (defaults?.seconds ?? Infinity) <= 60],
  ];
}
