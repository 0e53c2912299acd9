/**
 * Bundles the search page's script (src/page/app.ts and what it imports) for the browser into
 * public/app.js, which the worker's static assets serve. wrangler.toml runs this before
 * `wrangler dev` and `wrangler deploy` ([build]); it takes well under a second.
 */
import "../node-version.ts";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../tools/project.ts";

await build({
  entryPoints: [join(ROOT, "src", "page", "app.ts")],
  outfile: join(ROOT, "public", "app.js"),
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  sourcemap: true,
  logLevel: "warning",
});
