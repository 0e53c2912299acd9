/**
 * The benchmark's baseline: a worker that does nothing, on the same runtime and harness. With
 * `?bytes=N` it answers N bytes, to price the delivery of a body of that size.
 */
export default {
  fetch(request) {
    const bytes = Math.min(Number(new URL(request.url).searchParams.get("bytes") ?? 2) || 2, 1 << 20);
    return new Response("x".repeat(bytes), { headers: { "Content-Type": "text/plain" } });
  },
} satisfies ExportedHandler;
