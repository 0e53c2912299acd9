/**
 * Why a suggestion or a result is there, as its option (src/page/combobox.ts) or its line in the
 * list (src/page/results.ts) shows it: the API's `matched` (docs/api.md#suggestions, and a
 * search's with `matched=1`: docs/api.md#which-name-matched) names the name that holds the typed
 * words — the record's shown name, or an alternate, localized name or alias — with their spans in
 * it, offsets and lengths in UTF-16 code units as JavaScript indexes a string, and the place read
 * at the end of the text (`club ber`: "Berlin"). A name that matched other than the one shown is
 * shown beside it ("Fuzhou · Hok-chiu-chhī", "Saint Petersburg · Leningrad"); an option marks the
 * typed parts. Spans are taken as they come: sorted, clipped to the name, joined where they
 * overlap or touch, widened so as never to split a character (a surrogate pair, a letter and its
 * combining marks), the ones that hold nothing dropped. A record without `matched` (an API before
 * it), or with one that is not the shape, shows as it did. Pure: runs of text, which the page
 * writes with textContent.
 */

export interface Span {
  offset: number;
  length: number;
}

/** A record's `matched`, as read. */
export interface Matched {
  name: string;
  spans: Span[];
  place: string | null;
}

/** A run of text, marked when it holds typed words. */
export interface Run {
  text: string;
  marked: boolean;
}

/** What an option shows of why it is there. */
export interface OptionParts {
  /** The shown name, its typed parts marked when it is the name that matched. */
  name: Run[];
  /** The name that matched, its typed parts marked, when it is not the shown one; null when it is. */
  other: Run[] | null;
  /** The place read at the end of the text; null for none. */
  place: string | null;
}

const isSpan = (value: unknown): value is Span =>
  typeof value === "object" &&
  value !== null &&
  "offset" in value &&
  "length" in value &&
  Number.isInteger(value.offset) &&
  Number.isInteger(value.length);

/** A record's `matched` field; null when it has none or it is not the shape (its bad spans left out). */
export function readMatched(value: unknown): Matched | null {
  if (typeof value !== "object" || value === null || !("name" in value) || typeof value.name !== "string") {
    return null;
  }
  const spans = "spans" in value && Array.isArray(value.spans) ? value.spans.filter(isSpan) : [];
  const place = "place" in value && typeof value.place === "string" && value.place !== "" ? value.place : null;
  return { name: value.name, spans, place };
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
const MARK = /^\p{M}/u;

/** Whether a span boundary at `at` would split a character: inside a surrogate pair, or before a combining mark. */
function splits(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  return (isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at))) || MARK.test(text.slice(at));
}

/** The spans within `text`, widened to whole characters, sorted, joined where they overlap or touch. */
function ranges(text: string, spans: readonly Span[]): [number, number][] {
  const clipped = spans
    .map(({ offset, length }): [number, number] => [Math.max(0, offset), Math.min(text.length, offset + length)])
    .filter(([start, end]) => start < end)
    .map(([start, end]): [number, number] => {
      while (splits(text, start)) start--;
      while (splits(text, end)) end++;
      return [start, end];
    })
    .sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const [start, end] of clipped) {
    const last = joined.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else joined.push([start, end]);
  }
  return joined;
}

/** `text` in runs, the spans marked. */
export function markedRuns(text: string, spans: readonly Span[]): Run[] {
  const runs: Run[] = [];
  let at = 0;
  for (const [start, end] of ranges(text, spans)) {
    if (start > at) runs.push({ text: text.slice(at, start), marked: false });
    runs.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) runs.push({ text: text.slice(at), marked: false });
  return runs;
}

/**
 * The name that matched when it is not the one shown (an alias, an old or a foreign name), which a
 * result or an option shows beside it; null when the shown name matched, or `matched` (whatever
 * came) is missing or not the shape.
 */
export function otherName(shown: string, matched: unknown): string | null {
  const read = readMatched(matched);
  return read === null || read.name === shown ? null : read.name;
}

/** What the option of a suggestion shown as `shown` shows of its `matched` field (whatever came). */
export function optionParts(shown: string, matched: unknown): OptionParts {
  const read = readMatched(matched);
  if (read === null) return { name: markedRuns(shown, []), other: null, place: null };
  const other = otherName(shown, read);
  if (other === null) return { name: markedRuns(shown, read.spans), other: null, place: read.place };
  return { name: markedRuns(shown, []), other: markedRuns(other, read.spans), place: read.place };
}

/** `where` (an option's place line: parts joined by ", " and " · ") with the first part that is `place` marked. */
export function placeRuns(where: string, place: string | null): Run[] {
  let at = 0;
  for (const part of where.split(/(, | · )/)) {
    if (part === place) return markedRuns(where, [{ offset: at, length: part.length }]);
    at += part.length;
  }
  return markedRuns(where, []);
}
