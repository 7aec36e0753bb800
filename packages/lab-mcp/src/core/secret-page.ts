// A one-time page on 127.0.0.1 where the user types a secret. MCP forbids asking for secrets through
// form elicitation, so the secret goes from this page straight to the server, never via the client.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SecretAnswer {
  secret: string;
  /** The user ticked "remember": store it for the next start. */
  remember: boolean;
}

export interface SecretPage {
  url: string;
  /** Settles with the answer once the form is sent; rejects if the page is closed first. */
  answer: Promise<SecretAnswer>;
  close(): void;
}

export interface SecretPageText {
  title: string;
  /** What to type, e.g. "API key of the lab data platform". */
  label: string;
  /** Offer the "remember on this computer" box. */
  offerRemember: boolean;
  /** Say that the value is kept for this client's session only, in memory (a server shared over HTTP). */
  sessionOnly?: boolean;
}

const MAX_FORM_BYTES = 16 * 1024;

export async function openSecretPage(text: SecretPageText): Promise<SecretPage> {
  // The path is the capability: unguessable, and dead after one answer.
  const path = `/secret/${randomBytes(24).toString("base64url")}`;
  let settle: { resolve(answer: SecretAnswer): void; reject(error: Error): void } | undefined;
  const answer = new Promise<SecretAnswer>((resolve, reject) => {
    settle = { resolve, reject };
  });
  answer.catch(() => undefined);

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  const origin = await new Promise<string>((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
  let answered = false;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader("cache-control", "no-store");
    res.setHeader(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    );
    res.setHeader("referrer-policy", "no-referrer");
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname !== path || answered) return page(res, answered ? 410 : 404, "This page has expired.");
    if (req.method === "GET") return page(res, 200, form(text, path));
    if (req.method !== "POST") return page(res, 405, "Method not allowed.");
    // A form posted from another site must not be able to plant a secret.
    if (req.headers.origin !== undefined && req.headers.origin !== origin)
      return page(res, 403, "Forbidden.");
    const fields = new URLSearchParams(await readForm(req));
    const secret = fields.get("secret")?.trim() ?? "";
    if (!secret) return page(res, 400, form(text, path, "Please enter a value."));
    answered = true;
    page(res, 200, "<h1>Thank you</h1><p>You can close this window and go back to your assistant.</p>");
    settle?.resolve({ secret, remember: text.offerRemember && fields.get("remember") === "on" });
    setImmediate(() => server.close());
  };

  return {
    url: `${origin}${path}`,
    answer,
    close() {
      if (!answered) settle?.reject(new Error("The secret page was closed before an answer"));
      server.closeAllConnections();
      server.close();
    },
  };
}

async function readForm(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > MAX_FORM_BYTES) break;
  }
  return body;
}

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>lab-mcp</title>` +
      `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}` +
      `input[type=password]{width:100%;padding:.5rem;font-size:1rem}button{margin-top:1rem;padding:.5rem 1rem}</style>` +
      `</head><body>${body}</body></html>`,
  );
}

function form(text: SecretPageText, path: string, problem?: string): string {
  const remember = text.offerRemember
    ? `<p><label><input type="checkbox" name="remember"> Remember on this computer (stored in your user config folder, readable only by you)</label></p>`
    : "";
  return (
    `<h1>${escapeHtml(text.title)}</h1>` +
    (problem ? `<p role="alert">${escapeHtml(problem)}</p>` : "") +
    `<form method="post" action="${path}"><label for="secret">${escapeHtml(text.label)}</label>` +
    `<input id="secret" name="secret" type="password" autocomplete="off" required autofocus>` +
    `${remember}<button type="submit">Send to the server</button></form>` +
    `<p><small>The value goes only to the MCP server on this computer, not to your assistant.</small></p>` +
    (text.sessionOnly
      ? `<p><small>This server is shared over HTTP: the value is kept in its memory for your session only, ` +
        `used for no other client and never stored. You will be asked again in a new session.</small></p>`
      : "")
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
