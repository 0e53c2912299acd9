/**
 * A stand-in's HTTP server on 127.0.0.1 at an ephemeral port. It never keeps the process alive
 * (unref), and it closes with every open connection on `close()` or when the process exits, so
 * no test leaves one running.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Listening {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

export async function listenLocal(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void> | void,
): Promise<Listening> {
  const server = createServer((request, response) => {
    Promise.resolve(handle(request, response)).catch((error: unknown) => {
      // A stand-in's own bug: answer 500 rather than hang the client.
      if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(`stand-in error: ${String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  server.unref();
  const stop = () => {
    server.closeAllConnections();
    server.close();
  };
  process.once("exit", stop);
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        process.off("exit", stop);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A request's body as text. */
export async function bodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
