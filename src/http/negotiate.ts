/**
 * Content negotiation of `Accept` per RFC 9110 §12.5.1 (docs/api.md#formats): q-values, `type/*` and
 * `*\/*`, the most specific range deciding each type's quality. Pure.
 */
import { parseWeightedList } from "./weighted-list.ts";

export type Format = "json" | "xml";

export const CONTENT_TYPE: Record<Format, string> = {
  json: "application/json",
  xml: "application/xml",
};

/** What we can produce, in the order that breaks exact ties (setlist.fm's default first). */
const OFFERS: readonly { type: string; subtype: string; format: Format }[] = [
  { type: "application", subtype: "xml", format: "xml" },
  { type: "application", subtype: "json", format: "json" },
  { type: "text", subtype: "xml", format: "xml" },
];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** Position in the header; earlier wins among equals. */
  index: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The valid media ranges of an Accept header; malformed members are left out. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const { value, q, index } of parseWeightedList(header)) {
    const [type = "", subtype = "", extra] = value.split("/");
    if (extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) continue;
    if (type === "*" && subtype !== "*") continue;
    ranges.push({ type, subtype, q, index });
  }
  return ranges;
}

interface Candidate {
  format: Format;
  q: number;
  specificity: number;
  /** The range's position in the header: the earlier wins a tie. */
  index: number;
}

/** Higher q, then the more specific range, then the earlier one. */
function preferred(a: Candidate, b: Candidate): boolean {
  if (a.q !== b.q) return a.q > b.q;
  if (a.specificity !== b.specificity) return a.specificity > b.specificity;
  return a.index < b.index;
}

/**
 * The format to answer in, or null when nothing acceptable can be produced (406).
 * No Accept header, or one with no valid range, means XML.
 */
export function negotiateFormat(accept: string | null): Format | null {
  if (accept === null || accept.trim() === "") return "xml";
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return "xml";
  let best: Candidate | null = null;
  for (const offer of OFFERS) {
    const match = mostSpecificRange(offer, ranges);
    if (match === null || match.range.q === 0) continue;
    const candidate = {
      format: offer.format,
      q: match.range.q,
      specificity: match.specificity,
      index: match.range.index,
    };
    if (best === null || preferred(candidate, best)) best = candidate;
  }
  return best?.format ?? null;
}

/** The range that decides an offer's quality: exact type beats `type/*` beats `*\/*`. */
function mostSpecificRange(
  offer: { type: string; subtype: string },
  ranges: readonly MediaRange[],
): { range: MediaRange; specificity: number } | null {
  let best: { range: MediaRange; specificity: number } | null = null;
  for (const range of ranges) {
    const specificity =
      range.type === offer.type && range.subtype === offer.subtype
        ? 2
        : range.type === offer.type && range.subtype === "*"
          ? 1
          : range.type === "*"
            ? 0
            : -1;
    if (specificity < 0) continue;
    if (
      best === null ||
      specificity > best.specificity ||
      (specificity === best.specificity && range.q > best.range.q)
    ) {
      best = { range, specificity };
    }
  }
  return best;
}
