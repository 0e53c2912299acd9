/** The API request the form stands for: its path, its headers, and the same request as a curl command. */
import { fields, kind, out, valueOf } from "./dom.ts";
import { state } from "./state.ts";

/** Whether "near me" is chosen (its value a radius in km). */
export const nearMe = (): boolean => /^\d+$/.test(fields.near.value);

/** The radius in km when searching near the browser's location, else "". */
export function radius(): string {
  return state.position && nearMe() ? fields.near.value : "";
}

/** The text fields of the search: the City only for venues. */
const textFields = (): HTMLInputElement[] =>
  kind() === "venues"
    ? [fields.name, fields.city, fields.country, fields.state]
    : [fields.name, fields.country, fields.state];

function query(): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of textFields()) {
    if (valueOf(field)) params.set(field.name, valueOf(field));
  }
  if (state.position && radius()) {
    params.set("lat", state.position.lat);
    params.set("long", state.position.long);
    params.set("radius", radius());
  }
  if (state.area) params.set("bbox", state.area);
  if (fields.typos.value === "0") params.set("typos", "0");
  if (state.asTyped && params.has("name")) params.set("places", "0");
  if (state.page > 1) params.set("p", String(state.page));
  return params;
}

/** The path and query of the search. */
export function searchPath(): string {
  const params = query().toString();
  return `/1.0/search/${kind()}${params ? `?${params}` : ""}`;
}

/** The API key header, when a key is given. */
export const keyHeader = (): Record<string, string> =>
  valueOf(fields.key) ? { "x-api-key": valueOf(fields.key) } : {};

export function headers(): Record<string, string> {
  const h: Record<string, string> = { Accept: fields.view.value === "xml" ? "application/xml" : "application/json" };
  if (fields.lang.value !== "en") h["Accept-Language"] = fields.lang.value;
  return { ...h, ...keyHeader() };
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

export function showCurl(path: string): void {
  const parts = ["curl"];
  for (const [k, v] of Object.entries(headers()))
    parts.push(`-H ${quote(`${k}: ${k === "x-api-key" ? "YOUR_KEY" : v}`)}`);
  parts.push(quote(location.origin + path));
  out.curl.textContent = parts.join(" ");
}

/** Whether the form asks for anything at all. */
export function hasQuery(): boolean {
  return textFields().some((f) => valueOf(f) !== "") || radius() !== "" || state.area !== "";
}
