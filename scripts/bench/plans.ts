/**
 * Reading EXPLAIN QUERY PLAN: which lines read a whole table or index rather than seeking or
 * matching. One rule for the plan test (inside workerd) and the benchmark (on the big files).
 */
export function fullScans(details: readonly string[]): string[] {
  return details.filter((d) => {
    if (!d.startsWith("SCAN ")) return false;
    if (/^SCAN \S+ VIRTUAL TABLE INDEX \d+:.*M/.test(d)) return false; // an FTS5 MATCH
    // A bound JSON list of the statement's own, or a stored cell's kids (at most 16); a record's
    // names, the readings and their words and alternatives (s, r, g, a: src/match/one-name.ts).
    if (/^SCAN (json_each|ranges|j|r|s|g|a|kid_counts) VIRTUAL TABLE/.test(d)) return false;
    // A statement's own few rows: the page (h, paged), its parts (i, g, subqueries), the anchored
    // search's three tiers, the readings of a typo search (query/search.ts), and a search in an
    // area's cells on its edges (p, node: the recursion over cell_counts; kid: their unstored kids;
    // cells, kids: their sums), their groups, measured records, counts and
    // the circle a page is looked for in, its records and the span of them a page lies in (ring,
    // picked, chosen, candidate, span; src/geo/); the readings of a place in the
    // text, their places and their best records (r, co, re, candidates, tiered; query/places.ts); the
    // texts the ways of the suggestions read (texts: src/suggest/candidates.ts) and the places the end
    // of their text is read as (read_regions, read_cities: at most 2 each, src/suggest/ways.ts); a
    // search's first candidates (cand: src/match/capped.ts); the block a page of a scope starts in and
    // its cities (blk, city: query/venues.ts), the last record before a cell (lastrec: geo/places.ts);
    // the far larger records' bound and the keys promoted (bound, ranked: src/match/own-names.ts), a
    // box's page of one tier (tier: src/geo/box-page.ts), a broad word's stored sizes with its anchor
    // interval and bound, the anchors before the page, its far larger counts, the first found by an
    // own name, the segments' and sets' own rows (params, segments, anchor, promoted, first_own,
    // shape: query/anchored.ts); whether anything matches a typo search at all (guard: query/names.ts);
    // a scanned search's candidates in its circle, its total and first own record (within:
    // src/geo/scanned.ts).
    return !/^SCAN (blk|guard|city|lastrec|cand|h|i|g|p|s|r|co|re|strict|candidates|tiered|texts|parts|likeliest|floor|nearest|nearest_floor|read_regions|read_cities|walk|CONSTANT ROW|\d+ CONSTANT ROWS|\(subquery-\d+\)|flt|tiers|broad|rest|paged|node|kid|cells|kids|chosen|candidate|span|groups|measured|counts|picked|ring|best|tier|e|n|k|total|answer|lower|edges|ranges|bound|ranked|params|segments|anchor|promoted|first_own|shape|within)( LEFT-JOIN)?$/.test(
      d,
    );
  });
}
