/** D1 rows (see columns.ts) as records. */
import type { CityRecord, VenueRecord } from "../records.ts";

export interface CityRow {
  /** Kilometres from the centre of a search near a point. */
  dist?: number | null;
  id: string;
  name: string;
  state: string | null;
  state_code: string | null;
  lat: number;
  lng: number;
  country_code: string;
  country_name: string;
}

export interface VenueRow {
  dist?: number | null;
  id: string;
  name: string;
  url: string | null;
  city_id: string | null;
  city_name: string | null;
  city_state: string | null;
  city_state_code: string | null;
  city_lat: number | null;
  city_lng: number | null;
  city_country_code: string | null;
  city_country_name: string | null;
}

export function cityRecord(r: CityRow): CityRecord {
  return {
    id: r.id,
    name: r.name,
    state: r.state,
    stateCode: r.state_code,
    lat: r.lat,
    lng: r.lng,
    countryCode: r.country_code,
    countryName: r.country_name,
    ...distanceOf(r),
  };
}

/** The distance of a search near a point, to one decimal (SPEC §10.2). */
function distanceOf(r: { dist?: number | null }): { distanceKm?: number } {
  return typeof r.dist === "number" ? { distanceKm: Math.round(r.dist * 10) / 10 } : {};
}

export function venueRecord(r: VenueRow): VenueRecord {
  const city =
    r.city_id === null || r.city_name === null
      ? null
      : {
          id: r.city_id,
          name: r.city_name,
          state: r.city_state,
          stateCode: r.city_state_code,
          lat: r.city_lat ?? 0,
          lng: r.city_lng ?? 0,
          countryCode: r.city_country_code ?? "",
          countryName: r.city_country_name ?? "",
        };
  return { id: r.id, name: r.name, url: r.url, city, ...distanceOf(r) };
}
