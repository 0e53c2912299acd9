/**
 * Any valid request gets an answer, at a bounded cost (docs/api.md#what-one-request-may-cost):
 * requests drawn over every parameter at every value the API accepts (real words and long names,
 * boxes from tiny to the world, points and the largest radius, kinds, every filter at once, deep
 * pages; both searches and both suggestion endpoints: scripts/bench/valid-requests.ts) answer
 * 200, 404 or the 400 of the result window, never a 5xx; read at most MAX_ROWS_READ rows (D1's own
 * rows_read); and send D1 only statements within its documented limits (scripts/bench/d1-limits.ts),
 * while the local D1 enforces SQLite's expression depth and compound-SELECT terms as workerd sets
 * them. FUZZ_RUNS / 5 requests in `npm test`, more in `npm run test:fuzz`. The same requests at
 * 1,000,000 venues: `npm run bench` (docs/benchmarks.md#what-one-request-may-cost).
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { d1LimitProblems } from "../../scripts/bench/d1-limits.ts";
import {
  anyValidRequest,
  MAX_ROWS_READ,
  pathOf,
  validRequests,
  WIDEST,
  type ValidRequest,
  type Vocabulary,
} from "../../scripts/bench/valid-requests.ts";
import type { Env } from "../../src/env.ts";
import { callWith, type ErrorJson } from "./helpers.ts";

const RUNS = Math.max(200, Math.round((Number(env.FUZZ_RUNS) || 10_000) / 5));

interface Sent {
  text: string;
  binds: unknown[];
}

/** The DB binding, every statement it is sent recorded (its text and bound values). */
function recording(db: D1Database, sent: Sent[]): D1Database {
  const withSession = db.withSession.bind(db);
  return Object.assign(Object.create(db) as D1Database, {
    withSession(constraint?: D1SessionBookmark | D1SessionConstraint) {
      const session = withSession(constraint);
      const prepare = session.prepare.bind(session);
      return Object.assign(Object.create(session) as D1DatabaseSession, {
        prepare(text: string) {
          const statement = prepare(text);
          const bind = statement.bind.bind(statement);
          statement.bind = (...binds: unknown[]) => {
            sent.push({ text, binds });
            return bind(...binds);
          };
          return statement;
        },
        batch: session.batch.bind(session),
      });
    },
  });
}

/** One request through the worker (no cache): its status, message, rows read and statements. */
async function send(r: ValidRequest) {
  const sent: Sent[] = [];
  const overrides: Partial<Env> = { EDGE_CACHE: "off", DB: recording(env.DB, sent) };
  const res = await callWith(overrides, pathOf(r), { headers: { Accept: "application/json" } });
  const body = await res.text();
  const rows = Number(/rows_read=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? 0);
  const message = res.status >= 400 ? (JSON.parse(body) as ErrorJson).message : "";
  return { status: res.status, message, rows, sent };
}

/** What a valid request may be answered: an answer, "not found", or a page beyond the window. */
function expectBounded(path: string, answer: Awaited<ReturnType<typeof send>>): void {
  expect(answer.status, `${path}: ${answer.message}`).toBeLessThan(500);
  if (answer.status === 400) expect(answer.message, path).toMatch(/^parameter p must be at most \d+ for /);
  else expect([200, 404], path).toContain(answer.status);
  expect(answer.rows, path).toBeLessThanOrEqual(MAX_ROWS_READ);
  for (const s of answer.sent) expect(d1LimitProblems(s.text, s.binds), `${path}\n${s.text}`).toEqual([]);
}

let vocabulary: Vocabulary;

const column = async (query: string): Promise<string[]> =>
  (await env.DB.prepare(query).raw<[string]>()).map((row) => String(row[0]));

beforeAll(async () => {
  vocabulary = {
    words: await column("SELECT word FROM words ORDER BY venues + cities DESC LIMIT 2000"),
    cities: await column("SELECT name FROM cities ORDER BY pos LIMIT 300"),
    countries: [...(await column("SELECT code FROM countries")), ...(await column("SELECT name FROM countries"))],
    states: await column("SELECT name FROM admin1 LIMIT 200"),
    stateCodes: await column("SELECT DISTINCT admin1_code FROM cities WHERE admin1_code IS NOT NULL LIMIT 100"),
    cityIds: await column("SELECT id FROM cities ORDER BY pos LIMIT 200"),
  };
});

describe("the widest valid requests", () => {
  it.each(WIDEST)("%s answers without a 5xx, within the bound and D1's limits", async (path) => {
    const [endpoint, query = ""] = path.slice("/1.0/".length).split("?");
    expectBounded(path, await send({ endpoint: endpoint as ValidRequest["endpoint"], query }));
  });
});

describe("valid requests drawn over every parameter", () => {
  it(`${RUNS} of them: no 5xx, at most ${MAX_ROWS_READ} rows read, statements within D1's limits`, async () => {
    await fc.assert(
      fc.asyncProperty(anyValidRequest(vocabulary), async (r) => {
        expectBounded(pathOf(r), await send(r));
      }),
      { numRuns: RUNS, seed: 54 },
    );
  }, 600_000);

  it.each(["search/venues", "search/cities", "suggest/venues", "suggest/cities"] as const)(
    "%s, with the deepest pages and the widest areas",
    async (endpoint) => {
      await fc.assert(
        fc.asyncProperty(validRequests(vocabulary, endpoint), async (r) => {
          expectBounded(pathOf(r), await send(r));
        }),
        { numRuns: Math.round(RUNS / 8) },
      );
    },
    600_000,
  );
});
