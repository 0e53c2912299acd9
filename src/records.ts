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
}

export interface VenueRecord {
  id: string;
  name: string;
  url: string | null;
  city: CityRecord | null;
}

export interface Page<T> {
  page: number;
  total: number;
  items: T[];
  /** D1's rows_read for the statement that made the page (for benchmarks and logs). */
  rowsRead: number;
}

/** A lookup's answer: the record, or null when there is none. */
export interface Found<T> {
  item: T | null;
  rowsRead: number;
}
