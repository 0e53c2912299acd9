/**
 * The parts of a request's URL, read once per request. The query string stays raw: the
 * parameters are decoded by src/params/search.ts, which must see malformed escapes and repeats
 * (URLSearchParams would replace or merge them).
 */
export interface RequestUrl {
  /** `http://localhost:8787` */
  origin: string;
  /** `/1.0/search/venues` */
  path: string;
  /** The query string without its `?`; "" for none. */
  query: string;
}

const parsed = new WeakMap<Request, RequestUrl>();

/** A request URL's parts, split where they are (Request.url is absolute and normalized: it has a path). */
export function requestUrl(request: Request): RequestUrl {
  const known = parsed.get(request);
  if (known !== undefined) return known;
  const hash = request.url.indexOf("#");
  const url = hash < 0 ? request.url : request.url.slice(0, hash);
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const queryStart = url.indexOf("?", pathStart);
  const path = url.slice(pathStart, queryStart < 0 ? url.length : queryStart);
  const parts = { origin: url.slice(0, pathStart), path, query: queryStart < 0 ? "" : url.slice(queryStart + 1) };
  parsed.set(request, parts);
  return parts;
}
