// The one-time page this computer serves to the user's own browser on loopback: where a secret is typed
// (core/secret-page.ts) and where an OAuth sign-in comes back (the protocols code flow). It listens,
// answers every request with the same security headers, settles once (an answer, an error, a timeout
// or close), then stops listening. Callers say only what a request means.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the browser shows: a status, a title, and a body of HTML built with escapeHtml. */
export interface PageReply {
  status: number;
  title: string;
  body: string;
}

export type PageOutcome<T> = { value: T } | { error: Error };

export interface LocalPageOptions<T> {
  /** Loopback addresses to listen on, all on the same port (default: 127.0.0.1 only). */
  hosts?: readonly string[];
  /** Default 0: a free port. */
  port?: number;
  /** Answers one request; calls `settle` when this request ends the page. */
  handle(request: IncomingMessage, url: URL, settle: (outcome: PageOutcome<T>) => void): Promise<PageReply>;
  /** What any request reads once the page has settled. */
  expired: PageReply;
  /** Ends the page with this error after `timeoutMs`. */
  timeout?: { ms: number; error(): Error };
  /** How long open connections stay after settling, so that the last reply reaches the browser. */
  lingerMs?: number;
}

export interface LocalPage<T> {
  /** http://<first host>:<port> */
  origin: string;
  /** The outcome: the value a request settled with, or the error. */
  result: Promise<T>;
  isSettled(): boolean;
  /** Ends the page with `error` unless it has settled; stops listening at once. Safe to repeat. */
  close(error: Error): void;
}

/** A loopback address could not be listened on; `code` is the system's (EADDRINUSE, ...). */
export class ListenError extends Error {
  override readonly name = "ListenError";
  constructor(
    readonly address: string,
    readonly code: string,
  ) {
    super(`cannot listen on ${address}: ${code}`);
  }
}

/**
 * Every page: nothing cached, no referrer beyond itself, no frames, no script, forms only to itself.
 * "same-origin", not "no-referrer": under "no-referrer" a browser sends `Origin: null` with the page's own
 * form post, which the secret page's cross-site check must then refuse.
 */
const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
};

/** Addresses this computer does not have (IPv6 turned off) cannot be anyone's: they are skipped. */
const ABSENT_ADDRESS = new Set(["EADDRNOTAVAIL", "EAFNOSUPPORT"]);

export async function openLocalPage<T>(options: LocalPageOptions<T>): Promise<LocalPage<T>> {
  let settled = false;
  let finish: { resolve(value: T): void; reject(error: Error): void } | undefined;
  const result = new Promise<T>((resolve, reject) => {
    finish = { resolve, reject };
  });
  result.catch(() => undefined);

  const servers: Server[] = [];
  let timer: NodeJS.Timeout | undefined;
  // The port goes at once (a next page may need it); open connections after `lingerMs`.
  const stopListening = (lingerMs: number) => {
    clearTimeout(timer);
    for (const server of servers) server.close();
    const drop = () => {
      for (const server of servers) server.closeAllConnections();
    };
    if (lingerMs > 0) setTimeout(drop, lingerMs).unref();
    else drop();
  };
  const lingerMs = options.lingerMs ?? 200;
  /** Records the outcome once; who settles stops listening (a request only once its reply is out). */
  const settle = (outcome: PageOutcome<T>): boolean => {
    if (settled) return false;
    settled = true;
    if ("value" in outcome) finish?.resolve(outcome.value);
    else finish?.reject(outcome.error);
    return true;
  };

  const listen = (host: string, port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((req, res) => {
        const url = URL.canParse(req.url ?? "/", "http://127.0.0.1")
          ? new URL(req.url ?? "/", "http://127.0.0.1")
          : undefined;
        let settledHere = false;
        const reply = settled
          ? Promise.resolve(options.expired)
          : url
            ? options.handle(req, url, (outcome) => {
                if (settle(outcome)) settledHere = true;
              })
            : Promise.resolve(textPage(400, "Bad request", "This address is not understood."));
        reply
          .catch(() => ({ status: 500, title: "Error", body: "<p>Something went wrong.</p>" }))
          .then((answer) => {
            // The last reply closes its connection, so that no later request reaches this page.
            sendPage(res, answer, settled);
            if (settledHere) stopListening(lingerMs);
          });
      });
      server.once("error", (error: NodeJS.ErrnoException) =>
        reject(new ListenError(host, error.code ?? "failed")),
      );
      server.listen(port, host, () => resolve(server));
    });

  let port = options.port ?? 0;
  for (const host of options.hosts ?? ["127.0.0.1"]) {
    try {
      const server = await listen(host, port);
      servers.push(server);
      port = (server.address() as AddressInfo).port;
    } catch (error) {
      if (error instanceof ListenError && ABSENT_ADDRESS.has(error.code)) continue;
      stopListening(0);
      throw error;
    }
  }
  const first = servers[0]?.address() as AddressInfo | undefined;
  if (!first) throw new ListenError((options.hosts ?? []).join(", "), "no address can be listened on");
  const timeout = options.timeout;
  if (timeout) {
    timer = setTimeout(() => {
      if (settle({ error: timeout.error() })) stopListening(lingerMs);
    }, timeout.ms);
    timer.unref();
  }

  return {
    origin: `http://${first.family === "IPv6" ? `[${first.address}]` : first.address}:${first.port}`,
    result,
    isSettled: () => settled,
    close(error) {
      // A settled page stops listening by itself, leaving its last reply a moment to get out.
      if (settle({ error })) stopListening(0);
    },
  };
}

/** Writes a page with this file's style and security headers (also for a service's own HTTP route). */
export function sendPage(res: ServerResponse, reply: PageReply, last = false, cookies: string[] = []): void {
  if (res.headersSent) return;
  res.writeHead(reply.status, {
    "content-type": "text/html; charset=utf-8",
    ...SECURITY_HEADERS,
    ...(last ? { connection: "close" } : {}),
    ...(cookies.length > 0 ? { "set-cookie": cookies } : {}),
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(reply.title)} · lab-mcp</title>` +
      `<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}` +
      `input[type=password]{width:100%;padding:.5rem;font-size:1rem}button{margin-top:1rem;padding:.5rem 1rem}</style>` +
      `</head><body>${reply.body}</body></html>`,
  );
}

/** A plain page: the title as heading, one paragraph of text. */
export function textPage(status: number, title: string, text: string): PageReply {
  return { status, title, body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
