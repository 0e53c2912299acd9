/**
 * The tests' own great-circle distance, written out again rather than imported from src/data-contract/distance.ts,
 * so that brute-force checks compare the worker with an independent measure.
 */

/** Great-circle distance in km, mean Earth radius 6371.0088 km. */
export function km(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}
