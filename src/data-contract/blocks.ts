/**
 * Numbers that a change of the data changes only near it (docs/deploy.md#a-refresh-that-writes-what-changed):
 * the import writes them, the worker reads pages and cell counts with them.
 *
 * - A venue's `pos` is its city's pos × VENUE_SLOTS plus its place among its city's venues (by
 *   normalized name, then id); venues without a city come after every city's, as one more city. So
 *   venues added in one city renumber that city's venues only, and `cities.venue_first` is fixed.
 * - The page of a country, a state or of every venue seeks by `venue_blocks`: the scope's venues
 *   before each block of CITY_BLOCK cities (by pos), then a running sum over the block's cities. An
 *   added venue changes the blocks after its own, not a rank stored on every venue after it.
 * - A record's `cell_rank` is its number among the records of its cell at CELL_BLOCK_LEVEL (in the
 *   order of the finest cells, then pos), and `cell_blocks` holds the records of every earlier such
 *   cell: the records before a finest cell are the block's number plus the rank.
 */
import { FINEST_LEVEL } from "./grid.ts";

/**
 * Room for a city's venues in pos: at most this many venues a city. No more: FTS5 stores a
 * document list as the differences of its rowids, and the room between cities is in each of them
 * (2^20 made venues_fts 118 → 181 MiB at 1M venues).
 */
export const VENUE_SLOTS = 2 ** 16;

/** Cities (consecutive pos) per block of venue_blocks. */
export const CITY_BLOCK = 64;

/** venue_blocks.scope of every venue. */
export const ALL_VENUES = "";
/** venue_blocks.scope of a country's venues is its code ('DE'), of a state's the two joined by this ('DE.16'). */
export const SCOPE_SEPARATOR = ".";

/** The grid level whose cells number the records' cell_rank. */
const CELL_BLOCK_LEVEL = 7;
/** The bits to shift a finest cell by for its cell at CELL_BLOCK_LEVEL. */
export const CELL_BLOCK_SHIFT = 2 * (FINEST_LEVEL - CELL_BLOCK_LEVEL);
