/**
 * npm run bundle: bundles the worker for production (`wrangler deploy --dry-run`) and fails when
 * its gzip size passes the budget, so every change exercises the deploy path.
 */
import "./node-version.ts";
import { BUDGET_GZIP_KIB, bundleSize } from "./tools/bundle.ts";

const { kib, gzipKib } = await bundleSize();
const line = `worker bundle: ${kib.toFixed(1)} KiB, ${gzipKib.toFixed(1)} KiB gzip (budget ${BUDGET_GZIP_KIB} KiB gzip)`;
if (gzipKib > BUDGET_GZIP_KIB) {
  console.error(`${line}: OVER BUDGET`);
  process.exit(1);
}
console.log(line);
