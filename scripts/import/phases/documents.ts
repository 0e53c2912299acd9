/**
 * Phase 2, write the search documents (docs/architecture.md#search-indexes): one per city and one
 * per venue, in pos order (their rowid), holding the words of its names, its name tokens, its filter
 * tokens (src/data-contract/tokens.ts) and the cell tokens of its place (src/data-contract/grid.ts), into
 * the side files (build-file.ts), whose worker thread indexes them while the build goes on; the
 * words of each of its names apart, each a document of its own, where it has names with different
 * words (src/match/one-name.ts); and those names as written, beside it (city_name_texts,
 * venue_name_texts: src/data-contract/name-sets.ts).
 */
import type Database from "better-sqlite3";
import { cellTokensSql } from "../../../src/data-contract/grid.ts";
import { NAME_SLOTS, nameSetRowidSql, recordTokenSql } from "../../../src/data-contract/name-sets.ts";
import { cityTokenSql, kindTokenSql } from "../../../src/data-contract/tokens.ts";
import type { Progress } from "../progress.ts";

/**
 * The cities' documents, once they are ordered (`indexed`: the database answers city searches,
 * shards/served.ts). Their texts are copied once into pos order (temp.city_text, which the venues'
 * documents and the stored totals read too, indexed or not): a venue's city found by its geonameid
 * read the raw cities' pages in random order, once per venue.
 */
export function cityDocuments(db: Database.Database, progress: Progress, indexed: boolean): void {
  progress.phase(indexed ? "search documents of cities" : "texts of cities (a venue database indexes none)");
  db.exec(`
    CREATE TEMP TABLE city_text (pos INTEGER PRIMARY KEY, words TEXT NOT NULL, names TEXT NOT NULL, main TEXT NOT NULL,
                                 shared TEXT NOT NULL, name_sets TEXT, name_texts TEXT, tokens TEXT NOT NULL);
    INSERT INTO temp.city_text
    SELECT c.pos, r.words, r.names, r.main, r.shared, r.name_sets, r.name_texts, r.tokens
    FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY c.pos;`);
  if (indexed) {
    db.exec(`INSERT INTO side_cities.city_docs (pos, doc)
      SELECT c.pos, t.words || ' ' || t.names || ' ' || t.main || ' ' || t.shared || ' ' || t.tokens || ' ' || ${cellTokensSql("c.cell")}
      FROM cities c JOIN temp.city_text t ON t.pos = c.pos
      ORDER BY c.pos;`);
    nameDocuments(db, "temp.city_text", "side_cities.city_name_docs");
  }
  nameTexts(db, "temp.city_text", "city_name_texts");
}

/** The names a match may be in, as written, of the records that have any (src/data-contract/name-sets.ts). */
function nameTexts(db: Database.Database, table: string, texts: string): void {
  db.exec(
    `INSERT INTO ${texts} (pos, names) SELECT pos, name_texts FROM ${table} WHERE name_texts IS NOT NULL ORDER BY pos`,
  );
}

/**
 * Each name of the records whose names differ, as a document of its own (migrations/0012) at its
 * slot of the record's rowid range (src/data-contract/name-sets.ts).
 */
function nameDocuments(db: Database.Database, table: string, docs: string): void {
  const most = db.prepare(`SELECT max(json_array_length(name_sets)) FROM ${table}`).pluck().get() as number | null;
  if ((most ?? 0) > NAME_SLOTS) {
    throw new Error(`a record has ${most} names of different words; at most ${NAME_SLOTS} are indexed apart`);
  }
  db.exec(`INSERT INTO ${docs} (pos, doc)
    SELECT ${nameSetRowidSql("n.pos", "j.key")}, j.value || ' ' || ${recordTokenSql("n.pos")} FROM ${table} n, json_each(n.name_sets) j
    WHERE n.name_sets IS NOT NULL ORDER BY n.pos, j.key`);
}

/**
 * The venues' documents. A venue's cell tokens are those of its finest cell (its own point's, else
 * its city's: order.ts), its region tokens and city token its city's.
 */
export function venueDocuments(db: Database.Database, progress: Progress, indexed: boolean): void {
  if (!indexed) return;
  progress.phase("search documents of venues");
  db.exec(`
    INSERT INTO side_venues.venue_docs (pos, doc)
    SELECT v.pos, trim(v.words || ' ' || v.names || ' ' || v.own || ' ' || v.shared || ' ' || ${kindTokenSql("v.kind")}
                  || CASE WHEN v.city_pos IS NULL THEN '' ELSE ' ' || t.tokens || ' ' || ${cityTokenSql("v.city_pos")} END
                  || ' ' || ${cellTokensSql("v.cell")})
    FROM temp.ordered_venues v LEFT JOIN temp.city_text t ON t.pos = v.city_pos
    ORDER BY v.pos;`);
  nameDocuments(db, "temp.ordered_venues", "side_venues.venue_name_docs");
  nameTexts(db, "temp.ordered_venues", "venue_name_texts");
}
