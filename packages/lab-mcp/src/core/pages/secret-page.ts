// A one-time page on 127.0.0.1 where the user types a secret. MCP forbids asking for secrets through
// form elicitation, so the secret goes from this page straight to the server, never via the client.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { escapeHtml, openLocalPage, type PageReply, textPage } from "./local-page.js";

export interface SecretAnswer {
  secret: string;
  /** The user ticked "remember": store it for the next start. */
  remember: boolean;
  /**
   * On a team server's page, the email of the person whose browser sent it, from the ID token of
   * the browser's sign-in (absent when the identity provider gave none).
   */
  senderEmail?: string;
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
  /**
   * Say that the value is kept for the signed-in person alone, encrypted in the server's shared state,
   * for every replica, until they sign out (a team server; wins over sessionOnly).
   */
  keptUntilSignOut?: boolean;
  /** Whom the page is for (a team server's page, shown only to them): their email, or "you". */
  forWhom?: string;
}

const MAX_FORM_BYTES = 16 * 1024;
const EXPIRED = textPage(410, "Expired", "This page has expired.");

export async function openSecretPage(text: SecretPageText): Promise<SecretPage> {
  // The path is the capability: unguessable, and dead after one answer.
  const path = `/secret/${randomBytes(24).toString("base64url")}`;
  let origin = "";
  const page = await openLocalPage<SecretAnswer>({
    expired: EXPIRED,
    lingerMs: 50,
    async handle(req, url, settle): Promise<PageReply> {
      if (url.pathname !== path) return { ...EXPIRED, status: 404 };
      if (req.method === "GET") return formPage(text, path);
      if (req.method !== "POST") return textPage(405, "Not allowed", "Method not allowed.");
      // A form posted from another site must not be able to plant a secret.
      if (req.headers.origin !== undefined && req.headers.origin !== origin)
        return textPage(403, "Forbidden", "Forbidden.");
      const fields = new URLSearchParams(await readForm(req));
      const secret = fields.get("secret")?.trim() ?? "";
      if (!secret) return formPage(text, path, "Please enter a value.");
      settle({ value: { secret, remember: text.offerRemember && fields.get("remember") === "on" } });
      return textPage(200, "Thank you", "You can close this window and go back to your assistant.");
    },
  });
  origin = page.origin;
  return {
    url: `${origin}${path}`,
    answer: page.result,
    close: () => page.close(new Error("The secret page was closed before an answer")),
  };
}

export async function readForm(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > MAX_FORM_BYTES) break;
  }
  return body;
}

export function formPage(text: SecretPageText, path: string, problem?: string): PageReply {
  const remember = text.offerRemember
    ? `<p><label><input type="checkbox" name="remember"> Remember on this computer (stored in your user config folder, readable only by you)</label></p>`
    : "";
  const body =
    `<h1>${escapeHtml(text.title)}</h1>` +
    (text.forWhom ? `<p>This page is for ${escapeHtml(text.forWhom)} alone.</p>` : "") +
    (problem ? `<p role="alert">${escapeHtml(problem)}</p>` : "") +
    `<form method="post" action="${path}"><label for="secret">${escapeHtml(text.label)}</label>` +
    `<input id="secret" name="secret" type="password" autocomplete="off" required autofocus>` +
    `${remember}<button type="submit">Send to the server</button></form>` +
    (text.keptUntilSignOut
      ? `<p><small>The value goes only to the MCP server, not to your assistant.</small></p>`
      : `<p><small>The value goes only to the MCP server on this computer, not to your assistant.</small></p>`) +
    (text.keptUntilSignOut
      ? `<p><small>This server is shared by your team: the value is kept for you alone, encrypted, usable ` +
        `from any replica of the server, until you sign out. No one else's calls use it.</small></p>`
      : text.sessionOnly
        ? `<p><small>This server is shared over HTTP: the value is kept in its memory for your session only, ` +
          `used for no other client and never stored. You will be asked again in a new session.</small></p>`
        : "");
  return { status: problem ? 400 : 200, title: text.title, body };
}
