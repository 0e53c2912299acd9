import { words } from "../normalize";

/**
 * An FTS5 MATCH expression for a normalized search text: every word as a quoted prefix
 * phrase (`"fill"* "aud"*`), so that any word must start some word of the name, and no user
 * text can act as FTS5 syntax (`AND`, `NEAR(`, `*`, `"`, `^`, `col:` are all plain words here).
 * Null when there is no word to look for.
 */
export function ftsQuery(normalized: string): string | null {
  const list = words(normalized);
  if (list.length === 0) return null;
  return list.map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ");
}
