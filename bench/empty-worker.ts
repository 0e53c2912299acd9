/**
 * The benchmark's baselines, on the same runtime and harness as the real worker:
 * - `/` does nothing (the empty worker);
 * - `/?bytes=N` answers N bytes, to price delivering a body of that size;
 * - `/?d1=1` runs `SELECT 1` on D1, the floor of any request that reads D1.
 */
interface EmptyEnv {
  DB: D1Database;
}

export default {
  async fetch(request, env) {
    const params = new URL(request.url).searchParams;
    if (params.has("d1")) return Response.json(await env.DB.prepare("SELECT 1 AS one").first());
    const bytes = Math.min(Number(params.get("bytes") ?? 2) || 2, 1 << 20);
    return new Response("x".repeat(bytes), { headers: { "Content-Type": "text/plain" } });
  },
} satisfies ExportedHandler<EmptyEnv>;
