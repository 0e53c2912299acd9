import { exports } from "cloudflare:workers";
import { create } from "xmlbuilder2";

export const ORIGIN = "http://search.test";

/** Calls the worker as a client would, over fetch. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

export function getJson(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, { headers: { Accept: "application/json", ...headers } });
}

export function getXml(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, { headers: { Accept: "application/xml", ...headers } });
}

/** A parsed XML element: name, attributes, child elements, text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** The parts of xmlbuilder2's DOM nodes that the tests read. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/** Parses an XML document (with xmlbuilder2's parser) into plain elements. */
export function parseXml(xml: string): { declaration: string; root: XmlElement } {
  const declaration = /^<\?xml[^>]*\?>/.exec(xml)?.[0] ?? "";
  const doc = create(xml).root().node as unknown as DomNode;
  return { declaration, root: toElement(doc) };
}

function toElement(node: DomNode): XmlElement {
  const attributes: Record<string, string> = {};
  for (const a of Array.from(node.attributes ?? [])) attributes[a.name] = a.value;
  const children = Array.from(node.childNodes)
    .filter((c) => c.nodeType === 1)
    .map(toElement);
  return { name: node.nodeName, attributes, children, text: node.textContent ?? "" };
}
