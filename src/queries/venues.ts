/** Runs a venue search on D1 (SQL from venue-sql.ts). */
import { pageWithTotal } from "../db";
import type { SearchParams } from "../params";
import type { VenueRecord, Page } from "../records";
import { venueSearchSql } from "./venue-sql";

interface VenueRow {
  id: string;
  name: string;
  url: string | null;
  city_id: string | null;
  city_name: string | null;
  state: string | null;
  state_code: string | null;
}

export async function searchVenues(db: D1Database, p: SearchParams): Promise<Page<VenueRecord>> {
  const statement = venueSearchSql(p);
  if (statement === null) return { page: p.page, total: 0, items: [], rowsRead: 0 };
  const { total, rows, rowsRead } = await pageWithTotal<VenueRow>(db, statement);
  return {
    page: p.page,
    total,
    rowsRead,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      url: r.url,
      city:
        r.city_id === null || r.city_name === null
          ? null
          : { id: r.city_id, name: r.city_name, state: r.state, stateCode: r.state_code },
    })),
  };
}
