import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import { VENUES } from "../../src/query/venues.ts";
import { firstTrip, fuzzyTrip } from "../../src/query/trips.ts";
import { parseSuggestParams } from "../../src/suggest/params.ts";
import { suggestStatement } from "../../src/suggest/suggest.ts";
const [path] = process.argv.slice(2);
const url = new URL(path!, "http://x");
const resource = url.pathname.endsWith("venues") ? "venues" : "cities";
const q = (resource === "venues" ? VENUES : CITIES) as typeof VENUES;
const query = url.search.slice(1);
let statements;
if (url.pathname.includes("suggest")) {
  const s = parseSuggestParams(resource, query);
  statements = [suggestStatement(q, s, "en")!];
} else {
  const p = parseSearchParams(resource, query);
  const first = firstTrip(q, p, "en")!;
  statements = [...first.statements];
  const cands = p.nameWords.map((w) => ({ word: w + "x", records: 5, places: 0 }));
  if (first.fuzzy) statements.push(...(fuzzyTrip(q, p, "en", cands)?.statements ?? []));
}
for (const s of statements) {
  const r = await fetch(process.env.PROBE ?? "http://127.0.0.1:8799/", { method: "POST", body: JSON.stringify({ sql: s.text, binds: s.binds }) });
  const j = await r.json() as any;
  console.log(s.text.length, s.binds.length, j.error ?? `rows_read=${j.rows_read} n=${j.n} ${JSON.stringify(j.results?.[0])}`, "::", s.text.slice(0, 100).replace(/\s+/g, " "));
}
