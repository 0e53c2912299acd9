/**
 * The one error type (a status and a message meant for the caller) and the one error body
 * (docs/api.md#errors): {code, status, message, timestamp} in the negotiated format.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export interface ErrorBody {
  code: number;
  status: string;
  message: string;
  timestamp: string;
}

/** setlist.fm's timestamp form: 2026-11-22T10:15:30.000+0000. */
function timestamp(date = new Date()): string {
  return date.toISOString().replace("Z", "+0000");
}

export function errorBody(status: number, message: string, now = new Date()): ErrorBody {
  return { code: status, status: STATUS_TEXT[status] ?? "Error", message, timestamp: timestamp(now) };
}
