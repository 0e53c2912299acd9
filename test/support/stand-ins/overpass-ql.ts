/**
 * The subset of Overpass QL our client emits, parsed as the Overpass stand-in reads it
 * (drolbr/Overpass-API frontend/map_ql_parser.cc, statements/osm_script.cc):
 *
 *   [out:json][timeout:180][maxsize:536870912][bbox:s,w,n,e];
 *   area["ISO3166-1"="DE"][admin_level=2]->.a;
 *   ( nwr["amenity"~"^(nightclub|theatre)$"](area.a)(52.3,13.0,52.7,13.8); way["leisure"="stadium"](area.a); );
 *   out center tags;
 *
 * Anything else is a parse error with Overpass's wording: `line N: parse error: …`.
 */

/** south, west, north, east: Overpass's order. */
export type Box = [number, number, number, number];

export interface TagFilter {
  key: string;
  /** `=` exact value, `~` regular expression. */
  op: "=" | "~";
  value: string;
}

type SpatialFilter = { bbox: Box } | { area: string };

export type ElementType = "node" | "way" | "relation";

export interface QueryStatement {
  line: number;
  types: ElementType[];
  tags: TagFilter[];
  spatial: SpatialFilter[];
}

export interface Query {
  timeout: number;
  maxsize: number;
  bbox: Box | null;
  /** Named sets of areas: `->.a` of an area statement. */
  areas: { line: number; tags: TagFilter[]; into: string }[];
  /** The statements whose results are printed (a union's members, or a statement of its own). */
  statements: QueryStatement[];
  out: { center: boolean; tags: boolean } | null;
}

export class QlError extends Error {}

interface Token {
  text: string;
  kind: "string" | "word" | "number" | "punct";
  line: number;
}

const TOKEN =
  /\s+|\/\/[^\n]*|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)(?![A-Za-z_])|([A-Za-z_][A-Za-z0-9_]*|\d+)|(->|[[\]();,:=~.])/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (m === null) throw new QlError(`line ${line}: parse error: Unknown character '${text[at] ?? ""}'`);
    if (m[1] !== undefined) tokens.push({ text: JSON.parse(`"${m[1]}"`) as string, kind: "string", line });
    else if (m[2] !== undefined) tokens.push({ text: m[2], kind: "number", line });
    else if (m[3] !== undefined) tokens.push({ text: m[3], kind: "word", line });
    else if (m[4] !== undefined) tokens.push({ text: m[4], kind: "punct", line });
    line += (m[0].match(/\n/g) ?? []).length;
  }
  return tokens;
}

class Cursor {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  get line(): number {
    return (this.peek() ?? this.tokens[this.tokens.length - 1])?.line ?? 1;
  }
  fail(expected: string): never {
    const found = this.peek()?.text ?? "end of input";
    throw new QlError(`line ${this.line}: parse error: ${expected} expected - '${found}' found.`);
  }
  /** The next token, which must be `text` (or, without `text`, of that kind). */
  take(text: string | null, kind?: Token["kind"]): Token {
    const t = this.peek();
    if (t === undefined || (text !== null && t.text !== text) || (kind !== undefined && t.kind !== kind))
      this.fail(text !== null ? `'${text}'` : `a ${kind ?? "token"}`);
    this.i++;
    return t;
  }
  accept(text: string): boolean {
    if (this.peek()?.text !== text || this.peek()?.kind === "string") return false;
    this.i++;
    return true;
  }
  number(): number {
    return Number(this.take(null, "number").text);
  }
  value(): string {
    const t = this.peek();
    if (t === undefined || t.kind === "punct") this.fail("a string or a word");
    this.i++;
    return t.text;
  }
}

function box(c: Cursor): Box {
  const b: number[] = [c.number()];
  for (let k = 0; k < 3; k++) {
    c.take(",");
    b.push(c.number());
  }
  const [south, west, north, east] = b as Box;
  if (Math.abs(west) > 180 || Math.abs(east) > 180)
    throw new QlError(`line ${c.line}: static error: Longitudes in bounding boxes must be between -180.0 and 180.0.`);
  if (Math.abs(south) > 90 || Math.abs(north) > 90 || south > north)
    throw new QlError(`line ${c.line}: static error: Latitudes in bounding boxes must be between -90.0 and 90.0.`);
  return [south, west, north, east];
}

function settings(c: Cursor, q: Query): void {
  while (c.accept("[")) {
    const key = c.take(null, "word").text;
    c.take(":");
    if (key === "out") {
      if (c.take(null, "word").text !== "json") c.fail("'json' (the stand-in answers JSON only)");
    } else if (key === "timeout") q.timeout = c.number();
    else if (key === "maxsize") q.maxsize = c.number();
    else if (key === "bbox") q.bbox = box(c);
    else throw new QlError(`line ${c.line}: parse error: Unknown setting "${key}"`);
    c.take("]");
  }
  c.take(";");
}

function tagFilters(c: Cursor): TagFilter[] {
  const tags: TagFilter[] = [];
  while (c.peek()?.text === "[" && c.peek()?.kind === "punct") {
    c.take("[");
    const key = c.value();
    const op = c.peek()?.text === "~" ? "~" : "=";
    c.take(op);
    tags.push({ key, op, value: c.value() });
    c.take("]");
  }
  return tags;
}

function spatialFilters(c: Cursor): SpatialFilter[] {
  const spatial: SpatialFilter[] = [];
  while (c.accept("(")) {
    if (c.accept("area")) {
      spatial.push({ area: c.accept(".") ? c.take(null, "word").text : "_" });
    } else spatial.push({ bbox: box(c) });
    c.take(")");
  }
  return spatial;
}

const TYPES: Record<string, ElementType[]> = {
  nwr: ["node", "way", "relation"],
  node: ["node"],
  way: ["way"],
  relation: ["relation"],
  rel: ["relation"],
};

function queryStatement(c: Cursor): QueryStatement {
  const line = c.line;
  const word = c.take(null, "word").text;
  const types = TYPES[word];
  if (types === undefined) throw new QlError(`line ${line}: parse error: Unknown type "${word}"`);
  const tags: TagFilter[] = [];
  const spatial: SpatialFilter[] = [];
  // Filters in any order; all of them apply.
  for (let more = true; more;) {
    const before = tags.length + spatial.length;
    tags.push(...tagFilters(c));
    spatial.push(...spatialFilters(c));
    more = tags.length + spatial.length > before;
  }
  if (tags.length === 0 && spatial.length === 0) c.fail("a filter");
  c.take(";");
  return { line, types, tags, spatial };
}

function out(c: Cursor): Query["out"] {
  const mode = { center: false, tags: false };
  while (c.peek()?.text !== ";") {
    const t = c.take(null, "word").text;
    if (t !== "center" && t !== "tags")
      throw new QlError(`line ${c.line}: parse error: Invalid parameter for print: "${t}"`);
    mode[t] = true;
  }
  c.take(";");
  return mode;
}

/** The query of a request, or a QlError with the message Overpass would give. */
export function parseQuery(text: string): Query {
  const c = new Cursor(tokenize(text));
  const q: Query = { timeout: 180, maxsize: 536870912, bbox: null, areas: [], statements: [], out: null };
  if (c.peek()?.text === "[") settings(c, q);
  while (c.peek() !== undefined && q.out === null) {
    if (c.accept("area")) {
      const line = c.line;
      const tags = tagFilters(c);
      c.take("->");
      c.take(".");
      q.areas.push({ line, tags, into: c.take(null, "word").text });
      c.take(";");
    } else if (c.accept("(")) {
      while (!c.accept(")")) q.statements.push(queryStatement(c));
      c.take(";");
    } else if (c.accept("out")) q.out = out(c);
    else q.statements.push(queryStatement(c));
  }
  if (c.peek() !== undefined) c.fail("end of input");
  return q;
}
