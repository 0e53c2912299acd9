/** What the page remembers between searches. */
export const state = {
  page: 1,
  total: 0,
  perPage: 30,
  timer: 0,
  inflight: null as AbortController | null,
  /**
   * The point "near me" searches near, as sent: the browser's location (4 decimals: about 10 m), or
   * the point of a search the page's address named (`fromAddress`); null until one is known.
   */
  position: null as { lat: string; long: string; fromAddress: boolean } | null,
  /** Counts location requests, so that only the latest one's answer is used. */
  locating: 0,
  /** The limit to the map's area (src/page/area.ts): the `bbox` of its view when "search this area" was asked; "" for none. */
  area: "",
  /** The id of the record chosen from the name's suggestions, looked up rather than searched; "" for a search. Until another search. */
  record: "",
  /** Whether the name is searched as typed (`places=0`), not read for a place at its end; until it changes. */
  asTyped: false,
};
