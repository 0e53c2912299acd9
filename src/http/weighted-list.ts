/**
 * Weighted lists as `Accept` and `Accept-Language` carry them (RFC 9110 §12.4.2):
 * `value;param=x;q=0.8, other`. One parser for both headers. Pure.
 */
export interface Weighted {
  /** The member without its parameters, trimmed and lower-cased: `text/html`, `de-at`. */
  value: string;
  /** Its quality, 0 to 1; 1 when absent, 0 when malformed (a malformed weight accepts nothing). */
  q: number;
  /** Position in the header: earlier wins among equals. */
  index: number;
}

const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

export function parseWeightedList(header: string): Weighted[] {
  return header.split(",").map((part, index) => {
    const [value = "", ...params] = part.split(";");
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf("=");
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "q") continue;
      const weight = param.slice(eq + 1).trim();
      q = QVALUE.test(weight) ? Number(weight) : 0;
    }
    return { value: value.trim().toLowerCase(), q, index };
  });
}
