/**
 * What a venue search over venue databases reads from the main database alone
 * (docs/deploy.md#past-one-database): the candidate corrections of a typo, whose counts are of
 * every venue. A venue database's vocabulary holds the words of its own venues and of the places
 * (the long words of its statements are read from it: src/match/long-word-book.ts), so that
 * another region's venues change nothing in it; the one statement that counts words across
 * regions runs where every venue is counted, at the same time as the trip's others. Its
 * conditions on the venues (whether the strict answer stands, whether the filters may hold a
 * record: src/query/held.ts) are read there too, from the main database's venues, which are every
 * venue until a search is merged across venue databases.
 */
import { CORRECTIONS } from "../query/corrections.ts";
import type { Sql } from "../sql/sql.ts";

/** Whether the statement of this name (a trip's: src/query/trip.ts) runs in the main database. */
export const readsMainOnly = (name: string | undefined): boolean => name === CORRECTIONS;

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
