/**
 * Phase 2, write the search documents (docs/architecture.md#search-indexes): one per city and one
 * per venue, in pos order (their rowid), holding the words of its names, its name tokens, its filter
 * tokens (src/data-contract/tokens.ts) and the cell tokens of its place (src/data-contract/grid.ts), into
 * the side file (build-file.ts), whose worker thread indexes them while the build goes on.
 */
import type Database from "better-sqlite3";
import { cityTokenSql, kindTokenSql } from "../../../src/data-contract/tokens.ts";
import type { Progress } from "../progress.ts";

/**
 * The documents. A venue's cell tokens are those of its own point, else of its city's
 * (grid_tokens: cell-counts.ts); its region tokens and city token are its city's.
 */
export function searchDocuments(db: Database.Database, progress: Progress): void {
  progress.phase("search documents of cities and venues");
  db.exec(`
    INSERT INTO side.city_docs (pos, doc)
    SELECT c.pos, r.words || ' ' || r.names || ' ' || r.tokens || ' ' || grid_tokens(c.lat, c.lng)
    FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY c.pos;
    INSERT INTO side.venue_docs (pos, doc)
    SELECT v.pos, trim(v.words || ' ' || v.names || ' ' || ${kindTokenSql("v.kind")}
                  || CASE WHEN v.city_pos IS NULL THEN '' ELSE ' ' || r.tokens || ' ' || ${cityTokenSql("v.city_pos")} END
                  || ' ' || grid_tokens(coalesce(v.lat, c.lat), coalesce(v.lng, c.lng)))
    FROM temp.ordered_venues v LEFT JOIN cities c ON c.pos = v.city_pos
    LEFT JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY v.pos;`);
}
