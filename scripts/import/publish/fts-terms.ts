/**
 * A search document as its index holds it. The FTS5 indexes are contentless with `detail = 'none'`
 * (migrations/): each holds, per document, the set of its terms and nothing more — no order, no
 * count, no position — and FTS5's `'delete'` takes out the entries of the terms of the text it is
 * given. So a document's distinct terms, in one order, stand for it: what a mirror read back from
 * the remote's index holds (remote-mirror-read.ts), and what a build's document is compared as
 * against it (remote-difference.ts).
 */

/**
 * FTS5's `ascii` tokenizer with `tokenchars '_'`: a term is a run of ASCII letters, digits, `_`
 * and non-ASCII characters, its ASCII letters folded to lower case (src/data-contract/tokens.ts).
 */
const SEPARATORS = /[^A-Za-z0-9_\u0080-\uffff]+/;

/** The distinct terms of a document, sorted, joined by a space. */
export function documentTerms(doc: string): string {
  const terms = new Set<string>();
  for (const term of doc.split(SEPARATORS)) {
    if (term !== "") terms.add(term.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()));
  }
  return [...terms].sort().join(" ");
}
