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
