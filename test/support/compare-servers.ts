/**
 * The same requests sent to two servers of the same data (one database, and venue databases:
 * test/node/shards.test.ts), their answers compared byte for byte.
 */
import { expect } from "vitest";
import type { DevServer } from "../../scripts/tools/dev-server.ts";

/** The headers that describe an answer. */
const SAID = ["content-type", "x-match", "x-total-relation", "x-corrected-name", "x-read-as"];

export interface Said {
  status: number;
  headers: (string | null)[];
  body: string;
  /** The databases that answered (Server-Timing). */
  databases: string;
}

async function ask(server: DevServer | undefined, path: string, accept: string): Promise<Said> {
  const res = await fetch(`${server?.base ?? ""}${path}`, { headers: { Accept: accept } });
  // An error says when it happened.
  const body = (await res.text()).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000/g, "(time)");
  const databases = /databases=([^"]*)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? "";
  return { status: res.status, headers: SAID.map((h) => res.headers.get(h)), body, databases };
}

/** Each request (path, Accept) to both servers, a few at a time; what the second said, with its path. */
export async function compareServers(
  one: DevServer | undefined,
  other: DevServer | undefined,
  requests: [string, string][],
): Promise<(Said & { path: string })[]> {
  const said: (Said & { path: string })[] = [];
  for (let at = 0; at < requests.length; at += 6) {
    await Promise.all(
      requests.slice(at, at + 6).map(async ([path, accept]) => {
        const [a, b] = await Promise.all([ask(one, path, accept), ask(other, path, accept)]);
        expect({ status: b.status, headers: b.headers, body: b.body }, `${path} (${accept})`).toEqual({
          status: a.status,
          headers: a.headers,
          body: a.body,
        });
        said.push({ ...b, path });
      }),
    );
  }
  return said;
}
