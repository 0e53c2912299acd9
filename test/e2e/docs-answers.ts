/**
 * Whether an answer is the one a page shows (docs-examples.ts): JSON and XML compared as values —
 * every field shown, in the order shown, with `…` for what was left out — and header lines by name
 * (any case) and value.
 */
import { create } from "xmlbuilder2";
import type { Curl, Shown } from "./docs-examples.ts";

/** `…` between elements or keys: more of them were left out. */
const MORE = "\u0000more";
/** `"…"` as a value: any value. */
const ANY = "\u0000any";

type Value = unknown;
const isObject = (v: Value): v is Record<string, Value> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The last character of `out` that is not a space. */
const lastSolid = (out: string) => out.trimEnd().at(-1) ?? "";

/** The marker that stands for `…` at `i`, inside an object or an array, with the commas around it. */
function marker(text: string, i: number, inside: string, out: string): string {
  const before = ",{[".includes(lastSolid(out)) ? "" : ",";
  const after = ",}]".includes(text.slice(i + 1).trimStart()[0] ?? "") ? "" : ",";
  return `${before}${JSON.stringify(MORE)}${inside === "{" ? ": 0" : ""}${after}`;
}

/** Shown JSON with its `…` made values: MORE between elements or keys, ANY for "…". */
export function shownJson(text: string): Value {
  let out = "";
  const stack: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    const string = ch === '"' ? (/^"(?:[^"\\]|\\.)*"/.exec(text.slice(i))?.[0] ?? ch) : "";
    if (string !== "") {
      out += string;
      i += string.length - 1;
      continue;
    }
    if (ch === "{" || ch === "[") stack.push(ch);
    if (ch === "}" || ch === "]") stack.pop();
    const inside = stack.at(-1);
    // Around a fragment, `…` says only that it is somewhere in the answer.
    if (ch === "…") out += inside === undefined ? "" : marker(text, i, inside, out);
    else out += ch;
  }
  return JSON.parse(out, (_key, v: Value) => (v === "…" ? ANY : v));
}

/** Whether `actual` has every field of `shown` (in its order), and no others unless `…` says so. */
export function matches(shown: Value, actual: Value): boolean {
  if (shown === ANY) return actual !== undefined;
  if (Array.isArray(shown)) return Array.isArray(actual) && elementsMatch(shown, actual, 0, 0);
  if (!isObject(shown)) return shown === actual;
  if (!isObject(actual)) return false;
  const keys = Object.keys(shown).filter((k) => k !== MORE);
  if (!(MORE in shown) && Object.keys(actual).length !== keys.length) return false;
  const order = Object.keys(actual).filter((k) => keys.includes(k));
  return order.join("\u0001") === keys.join("\u0001") && keys.every((k) => matches(shown[k], actual[k]));
}

/** Shown elements from `i` against actual ones from `j`, in order; MORE stands for any number. */
function elementsMatch(shown: readonly Value[], actual: readonly Value[], i: number, j: number): boolean {
  if (i === shown.length) return j === actual.length;
  if (shown[i] === MORE) {
    return elementsMatch(shown, actual, i + 1, j) || (j < actual.length && elementsMatch(shown, actual, i, j + 1));
  }
  return j < actual.length && matches(shown[i], actual[j]) && elementsMatch(shown, actual, i + 1, j + 1);
}

/** Whether `shown` matches `actual` or anything within it. */
function foundIn(shown: Value, actual: Value): boolean {
  if (matches(shown, actual)) return true;
  const children = Array.isArray(actual) ? actual : isObject(actual) ? Object.values(actual) : [];
  return children.some((child) => foundIn(shown, child));
}

interface XmlNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/** An XML element as a value: its name, its attributes (`@name`) and its children; `…` text is MORE. */
function xmlValue(node: XmlNode): Value {
  if (node.nodeType !== 1) {
    const text = (node.textContent ?? "").trim();
    return text === "…" ? MORE : text;
  }
  const value: Record<string, Value> = { "#": node.nodeName };
  for (const a of Array.from(node.attributes ?? [])) value[`@${a.name}`] = a.value;
  value["*"] = Array.from(node.childNodes)
    .map(xmlValue)
    .filter((v) => v !== "");
  return value;
}

const xmlOf = (text: string) => xmlValue(create(text).root().node as unknown as XmlNode);

function headerLines(response: Response): string[] {
  return [`HTTP/1.1 ${response.status}`, ...[...response.headers].map(([name, value]) => `${name}: ${value}`)];
}

/** A line as compared: a header's name in lower case. */
const lineKey = (line: string) => line.replace(/^([\w-]+):\s*/, (_, name: string) => `${name.toLowerCase()}: `);

/** Why the answer is not what is shown, or null when it is. */
export function mismatch(curl: Curl, shown: Shown, response: Response, body: string): string | null {
  if (shown.kind === "lines") {
    const output = [...(curl.include ? headerLines(response) : []), ...body.split("\n")];
    const lines = output.filter((line) => curl.grep?.test(line) ?? true);
    const got = lines.map(lineKey).sort();
    return JSON.stringify(got) === JSON.stringify(shown.lines.map(lineKey).sort()) ? null : `got ${lines.join(" | ")}`;
  }
  if (shown.kind === "fragment") return foundIn(shownJson(shown.text), JSON.parse(body)) ? null : `not in ${body}`;
  if (shown.format === "json") return matches(shownJson(shown.text), JSON.parse(body)) ? null : `got ${body}`;
  if (shown.format === "xml") {
    const declaration = /^<\?xml[^>]*\?>/.exec(shown.text)?.[0] ?? "";
    return body.startsWith(declaration) && matches(xmlOf(shown.text), xmlOf(body)) ? null : `got ${body}`;
  }
  return body.trim() === shown.text.trim() ? null : `got ${body}`;
}
