/** Venue searches and lookups on D1 (SQL from venue-sql.ts and lookup-sql.ts). */
import { firstRow, pageWithTotal } from "../db";
import type { Language } from "../language";
import type { SearchParams } from "../params";
import type { Found, Page, VenueRecord } from "../records";
import { venueByIdSql } from "./lookup-sql";
import { venueRecord, type VenueRow } from "./rows";
import { venueSearchSql } from "./venue-sql";

export async function searchVenues(db: D1Database, p: SearchParams, language: Language): Promise<Page<VenueRecord>> {
  const statement = venueSearchSql(p, language);
  if (statement === null) return { page: p.page, total: 0, items: [], rowsRead: 0 };
  const { total, rows, rowsRead } = await pageWithTotal<VenueRow>(db, statement);
  return { page: p.page, total, rowsRead, items: rows.map(venueRecord) };
}

export async function venueById(db: D1Database, id: string, language: Language): Promise<Found<VenueRecord>> {
  const { row, rowsRead } = await firstRow<VenueRow>(db, venueByIdSql(id, language));
  return { item: row === null ? null : venueRecord(row), rowsRead };
}
