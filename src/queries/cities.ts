/** Runs a city search on D1 (SQL from city-sql.ts). */
import { pageWithTotal } from "../db";
import type { SearchParams } from "../params";
import type { CityRecord, Page } from "../records";
import { citySearchSql } from "./city-sql";

interface CityRow {
  id: string;
  name: string;
  state: string | null;
  state_code: string | null;
  lat: number;
  lng: number;
  country_code: string;
  country_name: string;
}

export async function searchCities(db: D1Database, p: SearchParams): Promise<Page<CityRecord>> {
  const statement = citySearchSql(p);
  if (statement === null) return { page: p.page, total: 0, items: [], rowsRead: 0 };
  const { total, rows, rowsRead } = await pageWithTotal<CityRow>(db, statement);
  return {
    page: p.page,
    total,
    rowsRead,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      stateCode: r.state_code,
      lat: r.lat,
      lng: r.lng,
      countryCode: r.country_code,
      countryName: r.country_name,
    })),
  };
}
