/**
 * An Overpass API server's `/api/status` (its text form, as the server writes it: "Rate limit: 2",
 * "2 slots available now.", "Slot available after: 2026-11-26T10:15:30Z, in 12 seconds."): how
 * long to wait before the next query. Pure.
 */

/** When the server gives no slot time (every slot taken by running queries): wait this long, then ask again. */
export const BUSY_WAIT_MS = 5000;

export interface OverpassStatus {
  rateLimit: number | null;
  slotsNow: number;
  /** The earliest time a slot frees up, when none is free now. */
  nextSlot: Date | null;
}

export function parseStatus(text: string): OverpassStatus {
  const rate = /^Rate limit: (\d+)\s*$/m.exec(text);
  const free = /^(\d+) slots? available now\.\s*$/m.exec(text);
  const slots = [...text.matchAll(/^Slot available after: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)/gm)]
    .map((m) => new Date(m[1] ?? ""))
    .filter((d) => !Number.isNaN(d.getTime()))
    .sort((a, b) => a.getTime() - b.getTime());
  return {
    rateLimit: rate === null ? null : Number(rate[1]),
    slotsNow: free === null ? 0 : Number(free[1]),
    nextSlot: slots[0] ?? null,
  };
}

/** Whether a text is an Overpass status at all (a proxy's page is not). */
export const isStatus = (text: string): boolean => /^Connected as: /m.test(text) && /^Rate limit: /m.test(text);

/** Milliseconds to wait before a query, by a status read at `now`: none while a slot is free; a server without a rate limit (0) never makes one wait. */
export function waitMs(status: OverpassStatus, now: Date): number {
  if (status.slotsNow > 0 || status.rateLimit === 0) return 0;
  if (status.nextSlot !== null) return Math.max(0, status.nextSlot.getTime() - now.getTime()) + 1000;
  return BUSY_WAIT_MS;
}
