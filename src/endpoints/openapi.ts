/** GET /1.0/openapi.json: the OpenAPI document of the API (src/openapi/document.ts), crediting the data served. */
import { servedCredits } from "../cache/served-credits.ts";
import type { Env } from "../env.ts";
import { openApiDocument } from "../openapi/document.ts";
import type { Credits } from "../data-contract/credits.ts";

/** How long a browser may keep the documents. */
export const DOCUMENT_CACHE = "public, max-age=3600";

/** The document as last serialized, for the credits it was built with (they change only with an import). */
let serialized: { credits: Credits; json: string } | null = null;

export async function openApi(_request: Request, env: Env): Promise<Response> {
  const credits = await servedCredits(env);
  if (serialized?.credits !== credits) serialized = { credits, json: JSON.stringify(openApiDocument(credits)) };
  return new Response(serialized.json, {
    headers: { "Content-Type": "application/json", "Cache-Control": DOCUMENT_CACHE },
  });
}
