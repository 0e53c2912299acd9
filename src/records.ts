/** The rows the query modules return, before they are shaped for a format. */
export interface CityRecord {
  id: string;
  name: string;
  state: string | null;
  stateCode: string | null;
  lat: number;
  lng: number;
  countryCode: string;
  countryName: string;
  /** Kilometres from the point of a search near a point. */
  distanceKm?: number;
}

export interface VenueRecord {
  id: string;
  name: string;
  url: string | null;
  city: CityRecord | null;
  distanceKm?: number;
}

export interface Page<T> {
  page: number;
  total: number;
  items: T[];
  /** How the names matched: strictly, or forgiving typos (SPEC §10.1). */
  match: "exact" | "fuzzy";
  /** For a fuzzy answer: the corrected query that the first result matched. */
  suggestion?: string;
}
