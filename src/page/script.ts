/**
 * The search page's script, served as /app.js (plain browser JavaScript, in a string because the
 * worker has no DOM types; test/e2e drives it in Chromium). It searches as you type (debounced,
 * earlier requests aborted), pages, shows raw JSON or XML, the curl command, and map links.
 */
export const PAGE_SCRIPT = `"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("search"), status = $("status"), results = $("results"), raw = $("raw");
  const prev = $("prev"), next = $("next"), pageinfo = $("pageinfo"), curl = $("curl");
  const state = { page: 1, total: 0, perPage: 30 };
  let timer = 0, inflight = null;

  const value = (id) => $(id).value.trim();
  const kind = () => form.querySelector("input[name=kind]:checked").value;

  function query() {
    const params = new URLSearchParams();
    for (const id of ["name", "country", "state"]) if (value(id)) params.set(id, value(id));
    if (state.page > 1) params.set("p", String(state.page));
    return params;
  }

  function headers() {
    const view = value("view");
    const h = { Accept: view === "xml" ? "application/xml" : "application/json" };
    if (value("lang") !== "en") h["Accept-Language"] = value("lang");
    if (value("key")) h["x-api-key"] = value("key");
    return h;
  }

  const quote = (s) => "'" + s.replace(/'/g, "'\\\\''") + "'";

  function showCurl(path) {
    const h = headers();
    const parts = ["curl"];
    for (const [k, v] of Object.entries(h)) parts.push("-H " + quote(k + ": " + (k === "x-api-key" ? "YOUR_KEY" : v)));
    parts.push(quote(location.origin + path));
    curl.textContent = parts.join(" ");
  }

  function line(text, className) {
    const span = document.createElement("span");
    span.textContent = text;
    if (className) span.className = className;
    return span;
  }

  function place(c) {
    return [c.name, c.state, c.country && c.country.name].filter(Boolean).join(", ");
  }

  function render(body) {
    results.replaceChildren();
    const items = body.venue || body.cities || [];
    for (const item of items) {
      const li = document.createElement("li");
      li.append(line(item.name, "name"));
      const meta = document.createElement("div");
      meta.className = "meta";
      if (body.type === "venues") {
        meta.append(item.city ? place(item.city) : "no city");
      } else {
        meta.append(place(item) + " · ");
        const map = document.createElement("a");
        const { lat, long } = item.coords;
        map.href = "https://www.openstreetmap.org/?mlat=" + lat + "&mlon=" + long + "#map=12/" + lat + "/" + long;
        map.textContent = "map (" + lat + ", " + long + ")";
        map.rel = "noopener";
        map.target = "_blank";
        meta.append(map);
      }
      li.append(meta);
      results.append(li);
    }
  }

  function paging() {
    const pages = Math.max(1, Math.ceil(state.total / state.perPage));
    pageinfo.textContent = state.total ? "Page " + state.page + " of " + pages.toLocaleString() : "";
    prev.disabled = state.page <= 1;
    next.disabled = state.page >= pages;
  }

  async function run() {
    const params = query();
    const path = "/1.0/search/" + kind() + (params.toString() ? "?" + params : "");
    showCurl(path);
    if (!value("name") && !value("country") && !value("state")) {
      results.replaceChildren();
      raw.hidden = true;
      state.total = 0;
      paging();
      status.textContent = "Type a name, or choose a country or state.";
      return;
    }
    if (inflight) inflight.abort();
    inflight = new AbortController();
    status.textContent = "Searching …";
    let response;
    try {
      response = await fetch(path, { headers: headers(), signal: inflight.signal });
    } catch (error) {
      if (error.name !== "AbortError") status.textContent = "The search failed: " + error.message;
      return;
    }
    const text = await response.text();
    const view = value("view");
    raw.hidden = view === "list";
    results.hidden = view !== "list";
    raw.textContent = view === "json" ? pretty(text) : text;
    const body = parse(text);
    if (!response.ok) {
      state.total = 0;
      results.replaceChildren();
      status.textContent = response.status === 404 ? "No matches." : "Error " + response.status + ": " + (body && body.message ? body.message : response.statusText);
    } else {
      state.total = body ? body.total : Number((/total="(\\d+)"/.exec(text) || [])[1] || 0);
      state.perPage = kind() === "venues" ? 30 : 50;
      if (body) render(body);
      status.textContent = state.total.toLocaleString() + " " + kind() + " found" + (response.headers.get("X-Cache") === "HIT" ? " (cached)" : "") + ".";
    }
    paging();
  }

  function parse(text) {
    try { return JSON.parse(text); } catch { return null; }
  }

  function pretty(text) {
    const body = parse(text);
    return body ? JSON.stringify(body, null, 2) : text;
  }

  function soon(resetPage) {
    if (resetPage) state.page = 1;
    clearTimeout(timer);
    timer = setTimeout(run, 250);
  }

  form.addEventListener("submit", (e) => { e.preventDefault(); soon(true); });
  form.addEventListener("input", (e) => soon(e.target.id !== "view" && e.target.id !== "lang"));
  form.addEventListener("change", (e) => { if (e.target.name === "kind") soon(true); });
  prev.addEventListener("click", () => { state.page--; run(); });
  next.addEventListener("click", () => { state.page++; run(); });
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(curl.textContent));
  showCurl("/1.0/search/venues");
})();
`;
