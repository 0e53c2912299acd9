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

export interface VenueCityRecord {
  id: string;
  name: string;
  state: string | null;
  stateCode: string | null;
}

export interface VenueRecord {
  id: string;
  name: string;
  url: string | null;
  city: VenueCityRecord | null;
}

export interface Page<T> {
  page: number;
  total: number;
  items: T[];
  /** D1's rows_read over the statements that made the page (for benchmarks and logs). */
  rowsRead: number;
}
