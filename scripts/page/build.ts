/**
 * Bundles the search page for the browser into public/, which the worker's static assets serve:
 * its script (src/page/app.ts and what it imports, Leaflet among them) into app.js, its map
 * styles (src/page/map.css with Leaflet's) into app.css, the images those styles name, and the
 * page's icon (favicon.svg, favicon.ico, apple-touch-icon.png: scripts/page/favicon.ts).
 * wrangler.toml runs this before `wrangler dev` and `wrangler deploy` ([build]); it takes well
 * under a second.
 */
import "../node-version.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../tools/project.ts";
import { appleTouchIconPng, faviconIco, faviconSvg } from "./favicon.ts";

const page = join(ROOT, "src", "page");

await build({
  entryPoints: [
    { in: join(page, "app.ts"), out: "app" },
    { in: join(page, "map.css"), out: "app" },
  ],
  outdir: join(ROOT, "public"),
  assetNames: "images/[name]-[hash]",
  loader: { ".png": "file" },
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  sourcemap: true,
  logLevel: "warning",
});
writeFileSync(join(ROOT, "public", "favicon.svg"), faviconSvg());
writeFileSync(join(ROOT, "public", "favicon.ico"), faviconIco());
writeFileSync(join(ROOT, "public", "apple-touch-icon.png"), appleTouchIconPng());
