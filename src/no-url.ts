/**
 * Stands in for @oozcitak/url's URL algorithm in the worker's bundle (wrangler.toml [alias]):
 * xmlbuilder2's DOM reads it only for a node's baseURI and a document's URL, which the XML answers
 * never ask for, and it was 20 KB of the bundle.
 */
export function urlSerializer(): never {
  throw new Error("URLs are not serialized here");
}
