// @ts-check
/**
 * The search page's behaviour, in the browser. The worker serves this function's source text as
 * /app.js (handlers/documents.ts), so it is browser JavaScript that no build step touches; it is
 * type-checked against the DOM and the API's own JSON types by src/page/tsconfig.json, and
 * test/e2e drives it in Chromium. It searches as you type (debounced, earlier requests aborted),
 * near the browser's location within a chosen radius, forgiving typos (with "did you mean"), pages,
 * shows raw JSON or XML, the curl command, and map links. Results are built with textContent only.
 *
 * Two rules follow from serving the source of a function that lives in the worker bundle, and the
 * lint rules below hold them:
 * - The function stands alone: no imports, nothing else at module level (only the source text of
 *   `app` is served). Types may come from anywhere: JSDoc is erased along with the comments.
 * - No function is bound to a name inside it (no nested `function f`, `const f = () => …`,
 *   `{ f: () => … }`, class): the bundler keeps such names by wrapping them in calls to a helper
 *   that exists only in the worker, which would fail in the browser. Use methods of an object
 *   (`{ f() {} }`) and callbacks passed inline.
 */
/* global document, location, navigator, fetch, setTimeout, clearTimeout, AbortController, URLSearchParams,
   HTMLElement, HTMLInputElement, HTMLSelectElement, HTMLButtonElement */
/* eslint no-restricted-syntax: ["error",
   { "selector": "Program > :not(ExportNamedDeclaration)", "message": "Only the source of app() is served: nothing may live beside it." },
   { "selector": ":function FunctionDeclaration, FunctionExpression[id], ClassDeclaration, ClassExpression", "message": "A named function or class would need the worker's name helper: use an object method." },
   { "selector": "VariableDeclarator > :function, AssignmentExpression > :function, AssignmentPattern > :function, Property[kind='init'][method=false] > :function", "message": "A function bound to a name would need the worker's name helper: use an object method or an inline callback." }
] */

/**
 * @typedef {import("../shape.ts").VenuesPage} VenuesPage
 * @typedef {import("../shape.ts").CitiesPage} CitiesPage
 * @typedef {import("../shape.ts").CityJson | import("../shape.ts").VenueCityJson} AnyCity
 * @typedef {{ message?: string }} ErrorBody
 */

export function app() {
  const find = {
    /**
     * @template {HTMLElement} T
     * @param {string} id
     * @param {{ new (): T, prototype: T }} type
     * @returns {T}
     */
    el(id, type) {
      const found = document.getElementById(id);
      if (!(found instanceof type)) throw new Error(`the page has no #${id} of the expected kind`);
      return found;
    },
  };
  const form = find.el("search", HTMLElement);
  const fields = {
    name: find.el("name", HTMLInputElement),
    country: find.el("country", HTMLInputElement),
    state: find.el("state", HTMLInputElement),
    key: find.el("key", HTMLInputElement),
    lang: find.el("lang", HTMLSelectElement),
    view: find.el("view", HTMLSelectElement),
    near: find.el("near", HTMLSelectElement),
    typos: find.el("typos", HTMLSelectElement),
  };
  const status = find.el("status", HTMLElement);
  const locate = find.el("locate", HTMLElement);
  const suggest = find.el("suggest", HTMLElement);
  const results = find.el("results", HTMLElement);
  const raw = find.el("raw", HTMLElement);
  const prev = find.el("prev", HTMLButtonElement);
  const next = find.el("next", HTMLButtonElement);
  const pageinfo = find.el("pageinfo", HTMLElement);
  const curl = find.el("curl", HTMLElement);

  const state = {
    page: 1,
    total: 0,
    perPage: 30,
    timer: 0,
    /** @type {AbortController | null} */
    inflight: null,
    /** The browser's location, as sent (4 decimals: about 10 m); null until it is known. */
    /** @type {{ lat: string, long: string } | null} */
    position: null,
    /** Counts location requests, so that only the latest one's answer is used. */
    locating: 0,
  };

  const page = {
    /** @param {HTMLInputElement | HTMLSelectElement} field */
    value(field) {
      return field.value.trim();
    },

    /** @returns {"venues" | "cities"} */
    kind() {
      const checked = form.querySelector("input[name=kind]:checked");
      return checked instanceof HTMLInputElement && checked.value === "cities" ? "cities" : "venues";
    },

    /** The radius in km when searching near the browser's location, else "". */
    radius() {
      return state.position ? fields.near.value : "";
    },

    query() {
      const params = new URLSearchParams();
      for (const field of [fields.name, fields.country, fields.state]) {
        if (page.value(field)) params.set(field.name, page.value(field));
      }
      if (state.position && page.radius()) {
        params.set("lat", state.position.lat);
        params.set("long", state.position.long);
        params.set("radius", page.radius());
      }
      if (fields.typos.value === "0") params.set("typos", "0");
      if (state.page > 1) params.set("p", String(state.page));
      return params;
    },

    /** @returns {Record<string, string>} */
    headers() {
      /** @type {Record<string, string>} */
      const h = { Accept: fields.view.value === "xml" ? "application/xml" : "application/json" };
      if (fields.lang.value !== "en") h["Accept-Language"] = fields.lang.value;
      if (page.value(fields.key)) h["x-api-key"] = page.value(fields.key);
      return h;
    },

    /** @param {string} s */
    quote(s) {
      return "'" + s.replace(/'/g, "'\\''") + "'";
    },

    /** @param {string} path */
    showCurl(path) {
      const parts = ["curl"];
      for (const [k, v] of Object.entries(page.headers())) {
        parts.push("-H " + page.quote(k + ": " + (k === "x-api-key" ? "YOUR_KEY" : v)));
      }
      parts.push(page.quote(location.origin + path));
      curl.textContent = parts.join(" ");
    },

    /**
     * @param {string} text
     * @param {string} className
     */
    span(text, className) {
      const span = document.createElement("span");
      span.textContent = text;
      span.className = className;
      return span;
    },

    /** @param {AnyCity} c */
    place(c) {
      const country = "name" in c.country ? c.country.name : undefined;
      return [c.name, c.state, country].filter(Boolean).join(", ");
    },

    /**
     * The distance of a search near the browser's location, when the record has one.
     * @param {HTMLElement} meta
     * @param {number | undefined} km
     */
    distance(meta, km) {
      if (km === undefined) return;
      meta.append(page.span(km.toFixed(1) + " km away", "distance"), " · ");
    },

    /** @param {VenuesPage | CitiesPage} body */
    render(body) {
      results.replaceChildren();
      const items = body.type === "venues" ? body.venue : body.cities;
      for (const item of items) {
        const li = document.createElement("li");
        li.append(page.span(item.name, "name"));
        const meta = document.createElement("div");
        meta.className = "meta";
        page.distance(meta, item.distance);
        if ("coords" in item) {
          meta.append(page.place(item) + " · ");
          const map = document.createElement("a");
          const { lat, long } = item.coords;
          map.href = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${long}#map=12/${lat}/${long}`;
          map.textContent = `map (${lat}, ${long})`;
          map.rel = "noopener";
          map.target = "_blank";
          meta.append(map);
        } else {
          meta.append(item.city ? page.place(item.city) : "no city");
        }
        li.append(meta);
        results.append(li);
      }
    },

    paging() {
      const pages = Math.max(1, Math.ceil(state.total / state.perPage));
      pageinfo.textContent = state.total ? `Page ${state.page} of ${pages.toLocaleString()}` : "";
      prev.disabled = state.page <= 1;
      next.disabled = state.page >= pages;
    },

    /**
     * "Did you mean": a fuzzy answer names the corrected query; a click searches it as written.
     * @param {string | null} corrected the X-Corrected-Name header, percent-encoded
     * @param {string} asked
     */
    showSuggestion(corrected, asked) {
      suggest.replaceChildren();
      suggest.hidden = corrected === null;
      if (corrected === null) return;
      let name = corrected;
      try {
        name = decodeURIComponent(corrected);
      } catch {
        // shown as sent
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.textContent = name;
      button.setAttribute("aria-label", `Search for “${name}”`);
      button.addEventListener("click", () => {
        fields.name.value = name;
        fields.name.focus();
        page.soon(true, 0);
      });
      suggest.append("Did you mean ", button, `? Nothing matched “${asked}” exactly; these are the closest names.`);
    },

    async run() {
      const params = page.query();
      const kind = page.kind();
      const path = `/1.0/search/${kind}${params.toString() ? "?" + params : ""}`;
      page.showCurl(path);
      if (fields.near.value && !state.position) return; // searches once the location is known
      if (!page.value(fields.name) && !page.value(fields.country) && !page.value(fields.state) && !page.radius()) {
        results.replaceChildren();
        raw.hidden = true;
        suggest.hidden = true;
        state.total = 0;
        page.paging();
        status.textContent = "Type a name, choose a country or state, or search near you.";
        return;
      }
      state.inflight?.abort();
      const inflight = new AbortController();
      state.inflight = inflight;
      status.textContent = "Searching …";
      const asked = page.value(fields.name);
      const radius = page.radius();
      let response;
      let text;
      try {
        response = await fetch(path, { headers: page.headers(), signal: inflight.signal });
        text = await response.text();
      } catch (error) {
        if (!inflight.signal.aborted) status.textContent = `The search failed: ${String(error)}`;
        return;
      }
      const view = fields.view.value;
      raw.hidden = view === "list";
      results.hidden = view !== "list";
      raw.textContent = view === "json" ? page.pretty(text) : text;
      const body = page.parse(text);
      if (!response.ok) {
        state.total = 0;
        results.replaceChildren();
        suggest.hidden = true;
        const message = body && "message" in body && body.message ? body.message : response.statusText;
        status.textContent = response.status === 404 ? "No matches." : `Error ${response.status}: ${message}`;
      } else {
        state.total = body && "total" in body ? body.total : Number(/total="(\d+)"/.exec(text)?.[1] ?? 0);
        state.perPage = kind === "venues" ? 30 : 50;
        if (body && "type" in body) page.render(body);
        const fuzzy = response.headers.get("X-Match") === "fuzzy";
        page.showSuggestion(fuzzy ? response.headers.get("X-Corrected-Name") : null, asked);
        status.textContent =
          `${state.total.toLocaleString()} ${state.total === 1 ? (kind === "venues" ? "venue" : "city") : kind} found` +
          (radius ? ` within ${radius} km of you` : "") +
          (fuzzy ? ", forgiving typos" : "") +
          (response.headers.get("X-Cache") === "HIT" ? " (cached)" : "") +
          ".";
      }
      page.paging();
    },

    /**
     * @param {string} text
     * @returns {VenuesPage | CitiesPage | ErrorBody | null}
     */
    parse(text) {
      try {
        return JSON.parse(text);
      } catch {
        return null;
      }
    },

    /** @param {string} text */
    pretty(text) {
      const body = page.parse(text);
      return body ? JSON.stringify(body, null, 2) : text;
    },

    /**
     * @param {boolean} resetPage
     * @param {number} [delay]
     */
    soon(resetPage, delay = 250) {
      if (resetPage) state.page = 1;
      clearTimeout(state.timer);
      state.timer = setTimeout(() => void page.run(), delay);
    },

    /** @param {string} message */
    noLocation(message) {
      fields.near.value = "";
      locate.textContent = `${message} Searching everywhere.`;
      locate.className = "note warn";
      page.soon(true, 0);
    },

    /** "Near me": asks the browser where it is (once), then searches around it. */
    near() {
      if (!fields.near.value) {
        state.locating++; // a location still on its way is not wanted now
        locate.textContent = "";
        page.soon(true, 0);
        return;
      }
      if (state.position) {
        locate.textContent = `Near your location (${state.position.lat}, ${state.position.long}).`;
        locate.className = "note";
        page.soon(true, 0);
        return;
      }
      if (!("geolocation" in navigator)) {
        page.noLocation("This browser cannot share its location (it needs a secure connection).");
        return;
      }
      const asking = ++state.locating;
      locate.textContent = "Finding your location …";
      locate.className = "note";
      status.textContent = "Waiting for your location …";
      navigator.geolocation.getCurrentPosition(
        (position) => {
          if (asking !== state.locating) return;
          state.position = {
            lat: position.coords.latitude.toFixed(4),
            long: position.coords.longitude.toFixed(4),
          };
          page.near();
        },
        (error) => {
          if (asking !== state.locating) return;
          page.noLocation(
            error.code === error.PERMISSION_DENIED
              ? "Location permission was denied: allow it for this site to search near you."
              : error.code === error.TIMEOUT
                ? "Finding your location took too long."
                : "Your location is unavailable.",
          );
        },
        { timeout: 15_000, maximumAge: 600_000 },
      );
    },
  };

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    page.soon(true);
  });
  form.addEventListener("input", (e) => {
    const id = e.target instanceof HTMLElement ? e.target.id : "";
    if (id === "near") page.near();
    else page.soon(id !== "view" && id !== "lang");
  });
  form.addEventListener("change", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.name === "kind") page.soon(true);
  });
  prev.addEventListener("click", () => {
    state.page--;
    void page.run();
  });
  next.addEventListener("click", () => {
    state.page++;
    void page.run();
  });
  find
    .el("copy", HTMLButtonElement)
    .addEventListener("click", () => void navigator.clipboard?.writeText(curl.textContent ?? ""));
  page.showCurl("/1.0/search/venues");
}
