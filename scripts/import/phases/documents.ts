/**
 * Phase 2, write the search documents (docs/architecture.md#search-indexes): one per city and one
 * per venue, in pos order (their rowid), holding the words of its names, its name tokens, its filter
 * tokens (src/data-contract/tokens.ts) and the cell tokens of its place (src/data-contract/grid.ts), into
 * the side files (build-file.ts), whose worker thread indexes them while the build goes on; and the
 * words of each of its names apart, where it has names with different words (src/match/one-name.ts).
 */
import type Database from "better-sqlite3";
import { cellTokensSql } from "../../../src/data-contract/grid.ts";
import { cityTokenSql, kindTokenSql } from "../../../src/data-contract/tokens.ts";
import type { Progress } from "../progress.ts";

/**
 * The cities' documents, once they are ordered. Their texts are copied once into pos order
 * (temp.city_text, which the venues' documents and the stored totals read too): a venue's city
 * found by its geonameid read the raw cities' pages in random order, once per venue.
 */
export function cityDocuments(db: Database.Database, progress: Progress): void {
  progress.phase("search documents of cities");
  db.exec(`
    CREATE TEMP TABLE city_text (pos INTEGER PRIMARY KEY, words TEXT NOT NULL, names TEXT NOT NULL, main TEXT NOT NULL,
                                 name_sets TEXT, tokens TEXT NOT NULL);
    INSERT INTO temp.city_text
    SELECT c.pos, r.words, r.names, r.main, r.name_sets, r.tokens FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY c.pos;
    INSERT INTO side_cities.city_docs (pos, doc)
    SELECT c.pos, t.words || ' ' || t.names || ' ' || t.main || ' ' || t.tokens || ' ' || ${cellTokensSql("c.cell")}
    FROM cities c JOIN temp.city_text t ON t.pos = c.pos
    ORDER BY c.pos;
    INSERT INTO city_name_words (pos, names) SELECT pos, name_sets FROM temp.city_text WHERE name_sets IS NOT NULL ORDER BY pos;`);
}

/**
 * The venues' documents. A venue's cell tokens are those of its finest cell (its own point's, else
 * its city's: order.ts), its region tokens and city token its city's.
 */
export function venueDocuments(db: Database.Database, progress: Progress): void {
  progress.phase("search documents of venues");
  db.exec(`
    INSERT INTO side_venues.venue_docs (pos, doc)
    SELECT v.pos, trim(v.words || ' ' || v.names || ' ' || ${kindTokenSql("v.kind")}
                  || CASE WHEN v.city_pos IS NULL THEN '' ELSE ' ' || t.tokens || ' ' || ${cityTokenSql("v.city_pos")} END
                  || ' ' || ${cellTokensSql("v.cell")})
    FROM temp.ordered_venues v LEFT JOIN temp.city_text t ON t.pos = v.city_pos
    ORDER BY v.pos;
    INSERT INTO venue_name_words (pos, names)
    SELECT pos, name_sets FROM temp.ordered_venues WHERE name_sets IS NOT NULL ORDER BY pos;`);
}
