/**
 * What a remote import costs in D1's units before it is paid, and whether it fits the account's
 * plan (docs/deploy.md#what-an-import-costs): the rows D1 counts as written (remote-cost.ts), the
 * bytes uploaded, and the database's size while the old and the new data are both there (until
 * the old tables are dropped) and after, from the replica (remote-replica.ts) and the size the
 * remote database reports now.
 *
 * Cloudflare's limits (https://developers.cloudflare.com/d1/platform/limits/,
 * https://developers.cloudflare.com/d1/platform/pricing/): Workers Free 100,000 rows written a day
 * and 500 MB a database; Workers Paid 10 GB a database, 50 million rows written a month included,
 * then $1.00 a million. MB and GB as Cloudflare counts them, 10^6 and 10^9 bytes.
 */
import { ImportError } from "../problems.ts";
import type { RemoteFiles, WrittenFile } from "./remote-files.ts";

export type Plan = "free" | "paid";
export const PLANS: readonly Plan[] = ["free", "paid"];

const FREE_ROWS_A_DAY = 100_000;
/** Rows read a day on Workers Free (Workers Paid includes 25 billion a month, then $0.001 a million). */
export const FREE_READS_A_DAY = 5_000_000;
/** D1 databases an account on Workers Free may have. */
export const FREE_DATABASES = 10;
/** D1 queries (calls of a database) a Worker invocation may make on Workers Free. */
export const FREE_QUERIES_A_REQUEST = 50;
/** A D1 database's size on Workers Free and on Workers Paid. */
export const FREE_BYTES = 500e6;
export const PAID_BYTES = 10e9;
const PAID_ROWS_A_MONTH = 50e6;
const PAID_DOLLARS_A_MILLION = 1;
/** An assumed pace of upload and ingestion (not measured from here). */
const ASSUMED_BYTES_A_SECOND = 2e6;

/** What the remote database holds now, as far as the cost depends on it. */
export interface RemoteSize {
  /** Its size as D1 reports it, bytes; null when it could not be read (a new database assumed). */
  size: number | null;
  /** The bytes its served data takes (meta d1_data_bytes, which each remote import records); null when unrecorded. */
  dataBytes: number | null;
  /** Whether it serves any data version. */
  holdsData: boolean;
}

export interface RemoteCost {
  /** The files still to apply (all of them, but on a resumed run), their bytes and the rows D1 counts for them. */
  files: number;
  bytes: number;
  rows: number;
  /** The database's size now, while the files apply (at most) and after, bytes. */
  sizeNow: number;
  sizeDuring: number;
  sizeAfter: number;
  /** Whether the size now was read from the remote database (else: a new one, assumed). */
  sizeKnown: boolean;
  /** A refresh: only what changed since the data the remote serves (remote-refresh.ts). */
  refresh?: boolean;
}

/**
 * The cost of a refresh: its one file of what changed, then the files that merge the indexes it
 * changed (remote-refresh.ts), whose statements took the mirror's replica from `before` bytes to
 * the last file's size; the remote's data changes by as much.
 */
export function refreshCost(files: readonly WrittenFile[], before: number, remote: RemoteSize): RemoteCost {
  const sizeNow = remote.size ?? before;
  const after = (size: number) => Math.max(0, sizeNow + size - before);
  const sizeAfter = after(files.at(-1)?.size ?? before);
  return {
    files: files.length,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    rows: files.reduce((sum, f) => sum + f.rows, 0),
    sizeNow,
    sizeDuring: Math.max(sizeNow, ...files.map((f) => after(f.size))),
    sizeAfter,
    sizeKnown: remote.size !== null,
    refresh: true,
  };
}

/** The cost of applying the files of `written` that have not applied yet (`done`). */
export function remoteCost(written: RemoteFiles, done: ReadonlySet<number>, remote: RemoteSize): RemoteCost {
  const { files } = written;
  const left = files.filter((_, n) => !done.has(n));
  const first = files.findIndex((_, n) => !done.has(n));
  // The replica's size when the remote's was read: before the first file left.
  const base = first <= 0 ? written.emptySize : (files[first - 1]?.size ?? written.emptySize);
  const beforeDrop = files.at(-2)?.size ?? base;
  // What dropping the old tables frees: the replica's own old tables are empty.
  const emptyFreed = beforeDrop - (files.at(-1)?.size ?? beforeDrop);
  const sizeNow = remote.size ?? written.emptySize;
  const freed = !remote.holdsData
    ? emptyFreed
    : (remote.dataBytes ?? Math.max(0, sizeNow - written.emptySize) + emptyFreed);
  const grown = Math.max(0, ...left.slice(0, -1).map((f) => f.size - base));
  return {
    files: left.length,
    bytes: left.reduce((sum, f) => sum + f.bytes, 0),
    rows: left.reduce((sum, f) => sum + f.rows, 0),
    sizeNow,
    sizeDuring: sizeNow + grown,
    sizeAfter: Math.max(0, sizeNow + (beforeDrop - base) - freed),
    sizeKnown: remote.size !== null,
  };
}

const n = (x: number) => Math.round(x).toLocaleString("en-US");
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB`;

function freeVerdict(c: RemoteCost): string {
  const over = [
    c.rows > FREE_ROWS_A_DAY ? `${n(c.rows)} rows written > ${n(FREE_ROWS_A_DAY)} a day` : "",
    c.sizeDuring > FREE_BYTES ? `${mb(c.sizeDuring)} > ${mb(FREE_BYTES)}` : "",
  ].filter(Boolean);
  return over.length === 0 ? "fits" : `does not fit (${over.join("; ")})`;
}

function paidVerdict(c: RemoteCost): string {
  if (c.sizeDuring > PAID_BYTES) return `does not fit (${mb(c.sizeDuring)} > 10 GB)`;
  const share = ((100 * c.rows) / PAID_ROWS_A_MONTH).toFixed(c.rows < PAID_ROWS_A_MONTH / 100 ? 2 : 1);
  const dollars = ((c.rows / 1e6) * PAID_DOLLARS_A_MILLION).toFixed(2);
  return `fits (${share} % of the 50 million rows written included a month; $${dollars} once they are used up)`;
}

const verdicts = (c: RemoteCost) => `Workers Free: ${freeVerdict(c)}. Workers Paid: ${paidVerdict(c)}.`;

/**
 * What the imports of several databases cost in all (shards/import.ts): files, bytes and rows
 * summed (rows written count against the account), sizes the largest database's (the limit is
 * a database's).
 */
export function totalCost(costs: readonly RemoteCost[]): RemoteCost {
  const sum = (f: (c: RemoteCost) => number) => costs.reduce((n, c) => n + f(c), 0);
  const most = (f: (c: RemoteCost) => number) => Math.max(0, ...costs.map(f));
  return {
    files: sum((c) => c.files),
    bytes: sum((c) => c.bytes),
    rows: sum((c) => c.rows),
    sizeNow: most((c) => c.sizeNow),
    sizeDuring: most((c) => c.sizeDuring),
    sizeAfter: most((c) => c.sizeAfter),
    sizeKnown: costs.every((c) => c.sizeKnown),
  };
}

const merging = (files: number) =>
  files === 0 ? "" : `, then ${files} merging the search indexes it changed into one segment each`;

/** The first line of a remote import: what it will cost, and which plan that fits. */
export function costLine(c: RemoteCost, resumedAt: number | null): string {
  const minutes = Math.max(1, Math.ceil(c.bytes / ASSUMED_BYTES_A_SECOND / 60));
  if (c.refresh === true) {
    return (
      `Remote import of what changed: 1 file${merging(c.files - 1)}, ${mb(c.bytes)} to upload; D1 counts ${n(c.rows)} rows written; ` +
      `the database holds ${mb(c.sizeNow)} now and ${mb(c.sizeAfter)} after. ${verdicts(c)}`
    );
  }
  const now = c.sizeKnown
    ? `${mb(c.sizeNow)} now`
    : `${mb(c.sizeNow)} for a new database, as the remote one could not be read`;
  return (
    `Remote import${resumedAt === null ? "" : ` from file ${resumedAt + 1} on`}: ${n(c.files)} files, ${mb(c.bytes)} to upload ` +
    `(about ${minutes} min at an assumed 2 MB/s); D1 counts ${n(c.rows)} rows written; the database holds ` +
    `${mb(c.sizeDuring)} while the old and the new data are both there (${now}) and ${mb(c.sizeAfter)} after. ` +
    verdicts(c)
  );
}

/** Why the import cannot run on `plan`, in one line with what to do; null when it fits. */
export function planRefusal(c: RemoteCost, plan: Plan): ImportError | null {
  const smaller = "import a smaller data set: docs/deploy.md#workers-free (--min-population, --venues)";
  if (plan === "free" && c.rows > FREE_ROWS_A_DAY) {
    return new ImportError(
      `stopped before the first file: the import writes ${n(c.rows)} rows as D1 counts them, and Workers Free ` +
        `allows ${n(FREE_ROWS_A_DAY)} a day; ${smaller}; or, on Workers Paid, --plan paid`,
    );
  }
  const [limit, name] = plan === "free" ? [FREE_BYTES, "Workers Free's 500 MB"] : [PAID_BYTES, "Workers Paid's 10 GB"];
  if (c.sizeDuring > limit) {
    const when = c.refresh === true ? "after what changed" : "while the old and the new data are both there";
    return new ImportError(
      `stopped before the first file: the database would hold ${mb(c.sizeDuring)} ${when} ` +
        `(${mb(c.sizeNow)} now), over ${name} a database; ${smaller}`,
    );
  }
  return null;
}
