/**
 * The language of names (src/data-contract/languages.ts), negotiated from Accept-Language as setlist.fm
 * does: English by default. Pure.
 */
import { LANGUAGES, type Language } from "../data-contract/languages.ts";
import { parseWeightedList } from "./weighted-list.ts";

const SUPPORTED = new Set<string>(LANGUAGES);

/**
 * The best supported language for an Accept-Language header (RFC 9110 §12.5.4): the highest
 * q-value wins, earlier first among equals; `de-AT` counts as `de`; `*` and anything else
 * unsupported mean English.
 */
export function negotiateLanguage(header: string | null): Language {
  if (header === null) return "en";
  let best: { lang: Language; q: number } | null = null;
  for (const { value, q } of parseWeightedList(header)) {
    const primary = value.split("-")[0] ?? "";
    if (q === 0 || !SUPPORTED.has(primary)) continue;
    if (best === null || q > best.q) best = { lang: primary as Language, q };
  }
  return best?.lang ?? "en";
}
