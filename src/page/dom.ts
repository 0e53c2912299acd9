/** The page's elements (src/endpoints/page.ts), found once, each checked to be of the kind the script uses. */

function element<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no #${id} of the expected kind`);
  return found;
}

export const form = element("search", HTMLFormElement);

export const fields = {
  name: element("name", HTMLInputElement),
  city: element("city", HTMLInputElement),
  country: element("country", HTMLInputElement),
  state: element("state", HTMLInputElement),
  key: element("key", HTMLInputElement),
  lang: element("lang", HTMLSelectElement),
  view: element("view", HTMLSelectElement),
  near: element("near", HTMLSelectElement),
  typos: element("typos", HTMLSelectElement),
};

export const out = {
  options: element("options", HTMLButtonElement),
  cityField: element("city-field", HTMLElement),
  limits: element("limits", HTMLElement),
  unarea: element("unarea", HTMLButtonElement),
  status: element("status", HTMLElement),
  showMap: element("show-map", HTMLButtonElement),
  reading: element("reading", HTMLElement),
  locate: element("locate", HTMLElement),
  suggest: element("suggest", HTMLElement),
  nameList: element("name-list", HTMLUListElement),
  split: element("split", HTMLElement),
  results: element("results", HTMLElement),
  raw: element("raw", HTMLElement),
  prev: element("prev", HTMLButtonElement),
  next: element("next", HTMLButtonElement),
  pageinfo: element("pageinfo", HTMLElement),
  curl: element("curl", HTMLElement),
  copy: element("copy", HTMLButtonElement),
  copied: element("copied", HTMLElement),
  map: element("map", HTMLElement),
  tilesNote: element("tiles-note", HTMLElement),
  area: element("area", HTMLButtonElement),
  mapinfo: element("mapinfo", HTMLElement),
};

/** A field's value, trimmed. */
export const valueOf = (field: HTMLInputElement | HTMLSelectElement): string => field.value.trim();

/** Which search the radio buttons ask for. */
export function kind(): "venues" | "cities" {
  const checked = form.querySelector("input[name=kind]:checked");
  return checked instanceof HTMLInputElement && checked.value === "cities" ? "cities" : "venues";
}

/** The City field is for venues: a city search has no cities to filter by. */
export function showKindFields(): void {
  const cities = kind() === "cities";
  out.cityField.hidden = cities;
  fields.city.disabled = cities;
}

/** A span with text and a class: text only, never HTML. */
export function span(text: string, className: string): HTMLSpanElement {
  const s = document.createElement("span");
  s.textContent = text;
  s.className = className;
  return s;
}
