// The one HTTPS listener every emulator runs on: a fresh leaf certificate from the emulator's CA, and a
// close() that does not wait for clients' keep-alive sockets, so tests and the sandbox stop promptly.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { type HttpResponse, writeResponse } from "./response.js";
import { type CertificateAuthority, issueServerCertificate } from "./tls.js";

const INTERNAL_ERROR: HttpResponse = {
  status: 500,
  headers: { "content-type": "application/json" },
  body: { kind: "raw", text: JSON.stringify({ error: "internal_error", message: "Emulator error" }) },
};

/** `url` holds the path and query; its origin is a placeholder. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface HttpsServerOptions {
  host?: string;
  port?: number;
  ca: CertificateAuthority;
  handler: RequestHandler;
}

export interface RunningHttpsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

export async function startHttpsServer(options: HttpsServerOptions): Promise<RunningHttpsServer> {
  const host = options.host ?? "127.0.0.1";
  const names = [...new Set(["localhost", "127.0.0.1", "::1", host])];
  const leaf = await issueServerCertificate(options.ca, names);
  // Raw sockets, including ones still in (or failing) the TLS handshake that closeAllConnections() misses.
  const sockets = new Set<Socket>();

  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    Promise.resolve()
      // A fixed origin keeps a "//x" path from being read as a host.
      .then(() =>
        options.handler(
          req,
          res,
          new URL(`https://emulator.invalid${req.url?.startsWith("/") ? req.url : "/"}`),
        ),
      )
      .catch(() => {
        // A handler bug must not kill the emulator; answer 500 if still possible, else cut the connection.
        if (res.headersSent) {
          res.destroy();
          return;
        }
        writeResponse(res, INTERNAL_ERROR);
      });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };

  return { url: `https://${hostForUrl(host)}:${port}`, port, close };
}
