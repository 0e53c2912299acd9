/** One venue by its id, one city by its GeoNames id (the lookups); bound values only. */
import type { Language } from "../language";
import { CITY_JOINS, cityColumns, VENUE_JOINS, venueColumns } from "./columns";
import type { Sql } from "./sql";

export function venueByIdSql(id: string, language: Language): Sql {
  const columns = venueColumns(language);
  return { sql: `SELECT ${columns.sql} FROM venues v ${VENUE_JOINS} WHERE v.id = ?`, params: [...columns.params, id] };
}

export function cityByIdSql(id: string, language: Language): Sql {
  const columns = cityColumns(language);
  return { sql: `SELECT ${columns.sql} FROM cities c ${CITY_JOINS} WHERE c.id = ?`, params: [...columns.params, id] };
}
