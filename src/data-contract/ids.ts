/**
 * What an id looks like, for the import (which refuses other ids) and the lookups (which answer
 * 400 for them): one definition for both sides.
 */

/** A venue id: setlist.fm's are 8 hex digits; imported files may use 1-64 letters, digits, - or _. */
export const VENUE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const VENUE_ID_RULE = "1 to 64 letters, digits, - or _";

/** A GeoNames id (geonameid): a positive integer. */
export const GEO_ID = /^[1-9][0-9]{0,11}$/;
export const GEO_ID_RULE = "a positive integer of at most 12 digits";

/**
 * A setlist.fm venue page (`https://www.setlist.fm/venue/…-<8 hex>.html`): the id it ends in is the
 * venue's setlist.fm id. A record that links its page is served under that id and url
 * (docs/import.md#setlistfm-ids).
 */
const SETLIST_VENUE_PAGE = /^https?:\/\/(?:www\.)?setlist\.fm\/venue\/[^?#\s]*-([0-9a-f]{8})\.html$/;

/** The setlist.fm id and canonical url of a venue page's URL; null when it is not one. */
export function setlistVenuePage(url: string): { id: string; url: string } | null {
  const m = SETLIST_VENUE_PAGE.exec(url.trim());
  if (m === null) return null;
  return { id: m[1] ?? "", url: url.trim().replace(/^https?:\/\/(?:www\.)?setlist\.fm\//, "https://www.setlist.fm/") };
}

/** What the import's SQL compares a url with to tell a setlist.fm page (setlistVenuePage's URLs all start so). */
export const SETLIST_VENUE_URL_PREFIX = "https://www.setlist.fm/venue/";
