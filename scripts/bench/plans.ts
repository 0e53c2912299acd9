/**
 * Reading EXPLAIN QUERY PLAN: which lines read a whole table or index rather than seeking or
 * matching. One rule for the plan test (inside workerd) and the benchmark (on the big files).
 */
export function fullScans(details: readonly string[]): string[] {
  return details.filter((d) => {
    if (!d.startsWith("SCAN ")) return false;
    if (/^SCAN \S+ VIRTUAL TABLE INDEX \d+:.*M/.test(d)) return false; // an FTS5 MATCH
    if (/^SCAN (json_each|ranges) VIRTUAL TABLE/.test(d)) return false; // a bound JSON list of the statement's own
    // A statement's own few rows: the page (h), its parts (i, g, subqueries), the anchored
    // search's three tiers, the readings of a typo search (queries/search.ts) and the circle a page
    // near a point is looked for in (queries/curve.ts).
    return !/^SCAN (h|i|g|CONSTANT ROW|\(subquery-\d+\)|flt|tiers|broad|rest|chosen|circle)$/.test(d);
  });
}
