/**
 * The search page's markup (GET /, src/endpoints/page.ts): the form, the results beside their map,
 * and the data credits. Its behaviour is src/page/ (public/app.js), its map styles
 * src/page/map.css (public/app.css). Every value from a setting is escaped.
 */
import { creditGroups, examplesOnlyNote, generatedNote, type Credits } from "../data-contract/credits.ts";
import { LANGUAGES } from "../data-contract/languages.ts";
import { MAX_VALUE_LENGTH } from "../params/search-params.ts";
import { attributionHtml, escapeHtml, type MapTiles } from "./page-map.ts";

const LANGUAGE_NAMES: Record<string, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  pt: "Português",
  tr: "Türkçe",
  it: "Italiano",
  pl: "Polski",
};

/** The radii, in km, of "near me" (the API allows up to 500). */
const RADII = [10, 25, 100, 500];

const link = (url: string, text: string) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;

/** The footer: each source with its licence (docs/api.md#data-credits). */
function creditsHtml(credits: Credits): string {
  const groups = creditGroups(credits).map(
    ([what, sources]) =>
      `${escapeHtml(what)}: ${sources.map((c) => `${link(c.url, c.name)} (${link(c.licenceUrl, c.licence)})`).join(", ")}.`,
  );
  const note = generatedNote(credits);
  return [...groups, ...(note === null ? [] : [escapeHtml(note)])].join(" ");
}

/** The head and the page's header: the same on every deployment. */
const HEAD = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Venue &amp; City Search</title>
<meta name="description" content="Search venues and cities: the setlist.fm search API on GeoNames data.">
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="stylesheet" href="/app.css">
<style>
  :root { color-scheme: light dark; --accent: #0b5fff; --muted: #5b6472; --line: #d6dae1; --bg-soft: #f4f6f9; }
  @media (prefers-color-scheme: dark) { :root { --accent: #7aa7ff; --muted: #a7b0bd; --line: #3a4150; --bg-soft: #1d222b; } }
  * { box-sizing: border-box; }
  /* The colour scheme's own ground and text, said outright: a page that leaves them to the browser is measured on white (axe). */
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; }
  header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
  #examples { margin: 0 0 0.75rem; font-size: 0.9rem; }
  header { padding-top: 1rem; }
  h1 { font-size: 1.5rem; margin: 0.5rem 0 0; }
  header p, footer, .meta, #status { color: var(--muted); }
  fieldset { min-width: 0; border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.75rem 1rem 1rem; margin: 0 0 1rem; }
  legend { padding: 0 0.25rem; font-weight: 600; }
  .kinds { display: flex; gap: 1rem; margin-bottom: 0.5rem; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0.75rem; }
  .field { display: flex; flex-direction: column; gap: 0.25rem; }
  .field label { font-size: 0.875rem; font-weight: 600; }
  input, select, button { font: inherit; padding: 0.5rem 0.6rem; border: 1px solid var(--line); border-radius: 0.375rem; background: Canvas; color: CanvasText; }
  input[type=search] { font-size: 1.1rem; }
  .wide { grid-column: 1 / -1; }
  button { cursor: pointer; background: var(--bg-soft); }
  button:disabled { cursor: default; opacity: 0.5; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  #results { list-style: none; padding: 0; margin: 0; }
  /* A page turned shows its start here (src/page/results.ts), a little room above it. */
  #results, #raw { scroll-margin-top: 0.75rem; }
  #results li { padding: 0.6rem 0; border-bottom: 1px solid var(--line); }
  #results .name { font-weight: 600; }
  #results a { color: var(--accent); }
  .meta { font-size: 0.9rem; }
  pre { background: var(--bg-soft); padding: 0.75rem; border-radius: 0.375rem; overflow: auto; max-height: 28rem; font-size: 0.85rem; white-space: pre-wrap; word-break: break-all; }
  nav { display: flex; align-items: center; gap: 0.75rem; margin: 1rem 0; flex-wrap: wrap; }
  .curl { display: flex; gap: 0.5rem; align-items: flex-start; }
  .curl pre { flex: 1; margin: 0; }
  details { margin-top: 0.75rem; }
  footer { font-size: 0.85rem; padding-bottom: 2rem; }
  .note { margin: 0.75rem 0 0; font-size: 0.9rem; color: var(--muted); }
  .note:empty { margin: 0; }
  .warn { color: #a33a00; }
  @media (prefers-color-scheme: dark) { .warn { color: #ffb27a; } }
  #suggest, #reading { margin: -0.5rem 0 1rem; }
  .link { padding: 0; border: 0; background: none; color: var(--accent); font-weight: 600; text-decoration: underline; }
  [hidden] { display: none !important; }
  .line { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: flex-start; margin-bottom: 0.75rem; }
  /* The name's suggestions, a row of the line of their own: in the flow, over no field (src/page/pointer.ts). */
  #name-list { flex: 0 0 100%; margin: 0; padding: 0.25rem 0; list-style: none; background: Canvas; border: 1px solid var(--line); border-radius: 0.375rem; }
  #name-list li { padding: 0.4rem 0.75rem; cursor: pointer; }
  #name-list li:hover { background: var(--bg-soft); }
  #name-list .name { font-weight: 600; }
  /* The typed parts of the name that matched (src/page/matched.ts): underlined, readable on the active option and in forced colours. */
  #name-list mark { background: none; color: inherit; text-decoration: underline 0.125em; text-underline-offset: 0.2em; }
  #name-list .where { display: block; font-size: 0.875rem; color: var(--muted); }
  #name-list [aria-selected=true] { background: var(--accent); color: Canvas; }
  #name-list [aria-selected=true] .where { color: inherit; }
  @media (forced-colors: active) { #name-list [aria-selected=true] { forced-color-adjust: none; background: Highlight; color: HighlightText; } }
  .line .field { flex: 1; min-width: 0; }
  .line button { margin-top: 1.6rem; }
  .error { color: #b3261e; font-size: 0.875rem; }
  [aria-invalid=true] { border-color: #b3261e; }
  @media (prefers-color-scheme: dark) { .error { color: #ffb4ab; } [aria-invalid=true] { border-color: #ffb4ab; } }
  .chips { margin: -0.5rem 0 0.5rem; }
  .chip { display: inline-flex; align-items: center; gap: 0.25rem; padding: 0 0 0 0.75rem; border: 1px solid var(--line); border-radius: 1rem; background: var(--bg-soft); font-size: 0.9rem; }
  .chip button { border: 0; border-radius: 1rem; background: none; padding: 0.25rem 0.6rem; }
  .answer { display: flex; align-items: center; justify-content: space-between; gap: 0.75rem; }
  .answer #status { margin: 0.5rem 0; }
  #show-map { white-space: nowrap; }
  /* A narrow screen: after a search the form folds to its name line, so that the answer comes first. */
  @media (max-width: 55.99rem) {
    header p { margin: 0.25rem 0 0.5rem; font-size: 0.9rem; }
    #search.folded .more, #search.folded legend { display: none; }
    #search.folded fieldset { padding-top: 0.75rem; }
    #search.folded .line { margin-bottom: 0; }
    /* Two lines, as most answers take beside "Show map": one of one line moves nothing below it either. */
    .answer #status { min-height: 3em; }
  }
  @media (min-width: 56rem) { #options, #show-map { display: none; } }
</style>
</head>
<body>
<header>
  <h1>Venue &amp; City Search</h1>
  <p>The setlist.fm venue and city search, on real GeoNames cities. API: <a href="/1.0/openapi.json">OpenAPI document</a>.</p>
</header>`;

/**
 * The name box is a combobox whose listbox of suggestions (#name-list, after the buttons of its
 * line, a row of its own as wide as the line, pushing what follows down) src/page/combobox.ts fills.
 */
const COMBOBOX =
  ' type="search" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="name-list"';

/** A text field with the API's limit on a value, and a place for what the API finds wrong with it. */
function textField(id: string, param: string, label: string, placeholder: string, describedBy = ""): string {
  const type = id === "name" ? COMBOBOX : "";
  return (
    `<div class="field" id="${id}-field"><label for="${id}">${label}</label>` +
    `<input id="${id}" name="${param}"${type} autocomplete="off" maxlength="${MAX_VALUE_LENGTH}" placeholder="${escapeHtml(placeholder)}" aria-describedby="${id}-error${describedBy}">` +
    `<span class="error" id="${id}-error" hidden></span></div>`
  );
}

/** A select of the form: its label and options (values and their text). */
const select = (id: string, label: string, options: [string, string][], describedBy = "") =>
  `<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${id}"${describedBy ? ` aria-describedby="${describedBy}"` : ""}>${options.map(([value, text]) => `<option value="${value}">${text}</option>`).join("")}</select></div>`;

/**
 * The search form: the name on a line of its own, the rest ("more") folded away on a narrow
 * screen once a search has answered (src/page/fold.ts); then the limit to the map's area, as a
 * chip, and the lines that report on the search.
 */
const FORM = `  <form id="search" role="search" aria-label="Search venues and cities">
    <fieldset>
      <legend>Search</legend>
      <div class="kinds more" id="kinds" role="radiogroup" aria-label="What to search">
        <label><input type="radio" name="kind" value="venues" checked> Venues</label>
        <label><input type="radio" name="kind" value="cities"> Cities</label>
      </div>
      <div class="line">
        ${textField("name", "name", "Name", "fillmore, club berlin, Portland, OR …", " status")}
        <button type="submit" class="go">Search</button>
        <button type="button" id="options" aria-expanded="true" aria-controls="kinds more">Options</button>
        <ul id="name-list" role="listbox" aria-label="Suggestions" hidden></ul>
      </div>
      <div class="more" id="more">
        <div class="grid">
          ${textField("city", "cityName", "City", "Berlin")}
          ${textField("country", "country", "Country", "US or United States")}
          ${textField("state", "state", "State", "California")}
          ${select(
            "lang",
            "Names in",
            LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l] ?? l]),
          )}
          ${select("near", "Where", [["", "Anywhere"], ...RADII.map((km): [string, string] => [`${km}`, `Near me, ${km} km`])], "locate")}
          ${select("typos", "Spelling", [
            ["1", "Forgive typos"],
            ["0", "Exact names only"],
          ])}
          ${select("view", "Show", [
            ["list", "Results"],
            ["json", "Raw JSON"],
            ["xml", "Raw XML"],
          ])}
        </div>
        <p id="locate" class="note" aria-live="polite"></p>
        <details>
          <summary>API key</summary>
          <div class="grid"><div class="field"><label for="key">x-api-key (only where the service requires one)</label><input id="key" name="key" type="password" autocomplete="off"></div></div>
        </details>
      </div>
    </fieldset>
  </form>
  <div id="limits" class="chips" hidden><span class="chip">Within the map's area <button type="button" id="unarea" aria-label="Remove the limit to the map's area">✕</button></span></div>
  <div class="answer"><p id="status" role="status" aria-live="polite">Type a name or a place, or search near you.</p><button type="button" id="show-map" aria-expanded="false" aria-controls="map-panel">Show map</button></div>
  <p id="suggest" hidden></p>
  <p id="reading" hidden aria-live="polite"></p>`;

/** The map's ground when it has no tiles: said in words, not left a grey box. */
const NO_TILES = "No map tiles on this site: the results are placed on a blank map.";

/**
 * What the map's keys do (Leaflet's), said to a screen reader as the map's description: reached with
 * Tab, it is a region named "Map" (a focusable element with no role and no name was announced as
 * nothing).
 */
const MAP_KEYS = "Arrow keys move the map; + and − zoom it.";

/** The results beside their map (its tiles' template and credit from the setting). */
const results = (tiles: MapTiles | null) => `  <div class="split" id="split">
    <div>
      <ol id="results" aria-label="Results" tabindex="-1"></ol>
      <pre id="raw" hidden tabindex="0" aria-label="Raw response"></pre>
      <nav aria-label="Pages">
        <button type="button" id="prev" disabled>← Previous</button>
        <span id="pageinfo"></span>
        <button type="button" id="next" disabled>Next →</button>
      </nav>
    </div>
    <section class="map-panel" id="map-panel" aria-label="Map of the results">
      <div class="map-bar"><button type="button" id="area">Search this area</button><span id="mapinfo" class="meta" aria-live="polite"></span></div>
      <div class="map-frame"><div id="map" role="region" aria-label="Map" aria-describedby="map-keys" data-tiles="${escapeHtml(tiles?.url ?? "")}"></div><p id="map-keys" hidden>${MAP_KEYS}</p><p id="tiles-note" class="map-note"${tiles ? " hidden>" : `>${NO_TILES}`}</p>${tiles ? `<p class="map-credit">${attributionHtml(tiles.attribution)}</p>` : ""}</div>
    </section>
  </div>`;

const CURL = `  <section aria-labelledby="curl-title">
    <h2 id="curl-title">The same request with curl</h2>
    <div class="curl"><pre><code id="curl"></code></pre><button type="button" id="copy">Copy</button></div>
    <p id="copied" class="note" role="status" aria-live="polite"></p>
  </section>`;

/**
 * While the venues served are only generated examples: one line that says so, with the command that
 * fetches real ones; first in <main>, the results it speaks of (outside every landmark, axe's `region`).
 */
function examplesLine(credits: Credits): string {
  const note = examplesOnlyNote(credits);
  if (note === null) return "";
  const [before, command, after] = note.split(/(npm run venues -- osm "Your City")/);
  return `\n<p id="examples" role="note">${escapeHtml(before ?? "")}<code>${escapeHtml(command ?? "")}</code>${escapeHtml(after ?? "")}</p>`;
}

export function pageHtml(credits: Credits, tiles: MapTiles | null): string {
  return `${HEAD}
<main>${examplesLine(credits)}
${FORM}
${results(tiles)}
${CURL}
</main>
<footer id="credits">${creditsHtml(credits)}</footer>
<script src="/app.js" defer></script>
</body>
</html>
`;
}
