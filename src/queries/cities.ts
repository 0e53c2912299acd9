/** City searches and lookups on D1 (SQL from city-sql.ts and lookup-sql.ts). */
import { firstRow, pageWithTotal } from "../db";
import type { Language } from "../language";
import type { SearchParams } from "../params";
import type { CityRecord, Found, Page } from "../records";
import { citySearchSql } from "./city-sql";
import { cityByIdSql } from "./lookup-sql";
import { cityRecord, type CityRow } from "./rows";

export async function searchCities(db: D1Database, p: SearchParams, language: Language): Promise<Page<CityRecord>> {
  const statement = citySearchSql(p, language);
  if (statement === null) return { page: p.page, total: 0, items: [], rowsRead: 0 };
  const { total, rows, rowsRead } = await pageWithTotal<CityRow>(db, statement);
  return { page: p.page, total, rowsRead, items: rows.map(cityRecord) };
}

export async function cityById(db: D1Database, id: string, language: Language): Promise<Found<CityRecord>> {
  const { row, rowsRead } = await firstRow<CityRow>(db, cityByIdSql(id, language));
  return { item: row === null ? null : cityRecord(row), rowsRead };
}
