/**
 * The floor of a miss (scripts/bench/floor-run.ts): a bare worker that replays a query class's own
 * statements — those the real worker sends for it, as `npm run sql` explains them — in one D1
 * session batch and returns their rows as JSON, nothing else. The benchmark gives each class's
 * statements once (`PUT /<class>` with a JSON body of `{text, binds}`), which the isolate keeps;
 * `GET /<class>` replays them.
 */
interface FloorEnv {
  DB: D1Database;
}

interface Statement {
  text: string;
  binds: (string | number | null)[];
}

const classes = new Map<string, Statement[]>();

export default {
  async fetch(request, env) {
    const id = new URL(request.url).pathname.slice(1);
    if (request.method === "PUT") {
      classes.set(id, await request.json<Statement[]>());
      return new Response(null, { status: 204 });
    }
    const statements = classes.get(id);
    if (statements === undefined) return new Response("no such class", { status: 404 });
    const session = env.DB.withSession("first-unconstrained");
    // Retried as the worker retries a transient failure (two wrangler dev on one local file lock it now and then).
    for (let attempt = 0; ; attempt++) {
      try {
        const results = await session.batch(statements.map((s) => session.prepare(s.text).bind(...s.binds)));
        return Response.json(results.map((r) => r.results));
      } catch (error) {
        if (attempt >= 20) return new Response(String(error), { status: 503 });
        await new Promise((resolve) => setTimeout(resolve, 10 + 10 * attempt));
      }
    }
  },
} satisfies ExportedHandler<FloorEnv>;
