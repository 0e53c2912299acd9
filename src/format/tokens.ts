/**
 * The words of the search indexes (venues_fts, cities_fts): the one definition of what the import
 * writes into a document and what a query asks for, so that the two cannot drift apart.
 *
 * The FTS5 tables tokenize with `ascii tokenchars '_'` (migrations/0004): a token is a run of ASCII
 * letters, digits, `_` and any non-ASCII character, so the space-separated output of normalize()
 * is split into exactly the words that words() returns (test/worker/tokenizer.test.ts runs every
 * code point through both). Normalized words never contain `_`, which leaves room for:
 *
 * - `_new_york`: a name as one token (`_` + its words joined by `_`), so "the name is the query"
 *   is the token and "the name starts with the query" its prefix;
 * - `__c_us`, `__s_us_ca`, `__a_ca`, `__t_<city pos>`: country, state (country and admin-1 code),
 *   admin-1 code alone, and a venue's city, so filters are FTS terms intersected with a name;
 * - `__g<level>_<cell>`: the cell of a point on a grid of 2^level × 2^level cells over longitude
 *   and latitude, at several levels, so "near a point" is an OR of a few cells.
 *
 * The same grid, as a Z-order curve, orders the cities for searches near a point alone (zCode).
 */
import { words } from "./normalize.ts";

export function nameToken(normalized: string): string {
  return `_${words(normalized).join("_")}`;
}

export const countryToken = (countryCode: string) => `__c_${countryCode.toLowerCase()}`;
const stateToken = (countryCode: string, admin1Code: string) =>
  `__s_${countryCode.toLowerCase()}_${admin1Code.toLowerCase()}`;
export const admin1Token = (admin1Code: string) => `__a_${admin1Code.toLowerCase()}`;

/** The tokens of a place's country and state. */
export function regionTokens(countryCode: string, admin1Code: string | null): string[] {
  const tokens = [countryToken(countryCode)];
  if (admin1Code !== null) tokens.push(stateToken(countryCode, admin1Code), admin1Token(admin1Code));
  return tokens;
}

/**
 * SQL expressions that build the same tokens from columns, for filters whose values come from the
 * database (a state by name, a city by name). `country` and `code` are column expressions written
 * in code, never user text.
 */
export const stateTokenSql = (country: string, code: string) => `'__s_' || lower(${country}) || '_' || lower(${code})`;
export const cityTokenSql = (pos: string) => `'__t_' || ${pos}`;
export const countryTokenSql = (code: string) => `'__c_' || lower(${code})`;

/**
 * Grid levels of the geo tokens. Level L has 2^L columns of 360/2^L degrees of longitude and
 * 2^L rows of 180/2^L degrees of latitude: level 12 cells are about 10 × 5 km at the equator,
 * level 4 cells 2,500 × 1,250 km. A search picks the finest level whose cells covering its circle
 * are few (src/geo/circle.ts).
 */
export const GEO_LEVELS = [4, 6, 8, 10, 12] as const;

/** The column (x) and row (y) of a point's cell at a level. */
export function geoCell(level: number, lat: number, lng: number): { x: number; y: number } {
  const n = 2 ** level;
  return {
    x: Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n))),
    y: Math.min(n - 1, Math.max(0, Math.floor(((lat + 90) / 180) * n))),
  };
}

export const geoToken = (level: number, x: number, y: number) => `__g${level}_${y * 2 ** level + x}`;

/**
 * The Z-order curve (Morton code) of the level-Z_LEVEL grid: a point's code interleaves the bits
 * of its cell's column and row, so every cell of any coarser level is one range of codes, and the
 * cities sorted by code are the cells' cities in one index (cities.z). A code fits in 32 bits.
 */
export const Z_LEVEL = 16;

/** The bits of x and y interleaved (x in the even bits, y in the odd ones), `bits` of each. */
function interleave(x: number, y: number, bits: number): number {
  let z = 0;
  for (let i = bits - 1; i >= 0; i--) z = z * 4 + ((y >> i) & 1) * 2 + ((x >> i) & 1);
  return z;
}

/** A point's code on the curve. */
export function zCode(lat: number, lng: number): number {
  const { x, y } = geoCell(Z_LEVEL, lat, lng);
  return interleave(x, y, Z_LEVEL);
}

/** The codes of a cell at `level` (at most Z_LEVEL): the range [lo, hi). */
export function zRange(level: number, x: number, y: number): [number, number] {
  const size = 4 ** (Z_LEVEL - level);
  const lo = interleave(x, y, level) * size;
  return [lo, lo + size];
}

/** A point's cell tokens, one per level. */
export function geoTokens(lat: number, lng: number): string[] {
  return GEO_LEVELS.map((level) => {
    const { x, y } = geoCell(level, lat, lng);
    return geoToken(level, x, y);
  });
}

/** A token (or a word) as an FTS5 phrase: quoted, so nothing in it is FTS5 syntax. */
export function phrase(token: string): string {
  return `"${token.replaceAll('"', '""')}"`;
}
