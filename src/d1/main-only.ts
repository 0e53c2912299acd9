/**
 * What a venue search over venue databases reads from the main database alone
 * (docs/deploy.md#past-one-database), at the same time as the trip's other statements: the
 * candidate corrections of a typo, whose counts are of every venue, and the places a name's last
 * words may be read as, which are chosen among every place. A venue database holds its own
 * regions' places and venues, and a vocabulary of their words (the long words of its statements
 * are read from it: src/match/long-word-book.ts), so that another region changes nothing in it.
 * Those statements' conditions on the venues (whether the strict answer stands, whether the
 * filters may hold a record: src/query/held.ts; each place's best record) are read there too, from
 * the main database's venues while it holds every venue; where it holds none, a name search
 * merged across venue databases, or routed to one, reads them in the venue databases instead
 * (src/query/merged-names.ts, routed-names.ts).
 */
import { CORRECTIONS } from "../query/corrections.ts";
import { PLACES } from "../query/places.ts";
import type { Sql } from "../sql/sql.ts";

/** Whether the statement of this name (a trip's: src/query/trip.ts) runs in the main database. */
export const readsMainOnly = (name: string | undefined): boolean => name === CORRECTIONS || name === PLACES;

/** A round trip's statements split by database: those of the venue database and those of the main one, each with its place. */
export function splitByDatabase(statements: readonly Sql[], names: readonly string[] = []) {
  const inMain = statements.map((_, i) => readsMainOnly(names[i]));
  return {
    venues: statements.filter((_, i) => inMain[i] !== true),
    main: statements.filter((_, i) => inMain[i] === true),
    /** The rows of the two parts in the trip's order. */
    joined<T>(venueRows: readonly T[], mainRows: readonly T[]): T[] {
      let [v, m] = [0, 0];
      return inMain.map((main) => (main ? mainRows[m++] : venueRows[v++]) as T);
    },
  };
}
