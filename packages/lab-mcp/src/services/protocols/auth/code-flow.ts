// The OAuth authorization code flow as a native app runs it (RFC 8252): a fresh random state and PKCE
// verifier (RFC 7636, S256), the authorize URL for the user's browser, and a one-shot listener on this
// computer at the redirect URI that receives the browser's redirect, checks the state, and exchanges the
// code (with the verifier) for tokens. Both `protocols-mcp login` and the protocols_sign_in tool run it;
// only how the URL reaches the user differs.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { lookup } from "node:dns/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { ActionableError } from "../../../core/errors.js";
import type { OAuthApp } from "../settings.js";
import type { TokenResponse } from "../types.js";
import { AUTHORIZE_PATH, describeOAuthError } from "./token-endpoint.js";

/** How long a sign-in waits for the browser by default. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60 * 1000;

export interface CodeFlowOptions {
  /** Origin of the repository, e.g. https://www.protocols.io */
  baseUrl: string;
  app: OAuthApp;
  /** Trades the code for tokens, proving with `codeVerifier` that this flow asked for it. */
  exchange(code: string, codeVerifier: string): Promise<TokenResponse>;
  timeoutMs?: number;
  /** Heard for every redirect refused while the flow goes on (a wrong state), e.g. to tell the terminal. */
  onRefused?(reason: string): void;
}

export interface CodeFlow {
  /** Where to send the user: the repository's authorize endpoint with this flow's state. */
  authorizeUrl: string;
  /** The tokens, once the browser came back with a valid code and it was exchanged. */
  tokens: Promise<TokenResponse>;
  /** Stops listening; a flow not finished yet then fails. Safe to call more than once. */
  close(): void;
}

/** The sign-in did not complete; the message says why, without any secret. */
export class SignInError extends ActionableError {}

export async function startCodeFlow(options: CodeFlowOptions): Promise<CodeFlow> {
  const redirect = new URL(options.app.redirectUri);
  const state = randomBytes(32).toString("base64url");
  // A code intercepted on its way back is worthless without the verifier, which never leaves this process
  // but in the exchange. A repository without PKCE ignores the extra parameters (RFC 6749 section 3.1).
  const codeVerifier = randomBytes(32).toString("base64url");
  const timeoutMs = options.timeoutMs ?? SIGN_IN_TIMEOUT_MS;

  const authorize = new URL(AUTHORIZE_PATH, `${options.baseUrl}/`);
  authorize.search = new URLSearchParams({
    client_id: options.app.clientId,
    redirect_uri: options.app.redirectUri,
    // The repository's own documents name it redirect_url (fact sheet 2.1); the spec, redirect_uri.
    redirect_url: options.app.redirectUri,
    response_type: "code",
    state,
    code_challenge: createHash("sha256").update(codeVerifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();

  let settled = false;
  let exchanging = false;
  let finish: { resolve(tokens: TokenResponse): void; reject(error: Error): void } | undefined;
  const tokens = new Promise<TokenResponse>((resolve, reject) => {
    finish = { resolve, reject };
  });
  tokens.catch(() => undefined);

  const servers: Server[] = [];
  let timer: NodeJS.Timeout | undefined;
  // The port goes at once (a next sign-in may need it); open connections a moment later, so that the
  // answer page reaches the browser first.
  const close = (dropConnectionsAfterMs = 0) => {
    clearTimeout(timer);
    for (const server of servers) server.close();
    const drop = () => {
      for (const server of servers) server.closeAllConnections();
    };
    if (dropConnectionsAfterMs > 0) setTimeout(drop, dropConnectionsAfterMs).unref();
    else drop();
  };
  const settle = (outcome: { tokens: TokenResponse } | { error: Error }) => {
    if (settled) return;
    settled = true;
    if ("tokens" in outcome) finish?.resolve(outcome.tokens);
    else finish?.reject(outcome.error);
    close(200);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", redirect.origin);
    if (url.pathname !== redirect.pathname)
      return page(res, 404, "Not found", "This is not the sign-in address.");
    if (req.method !== "GET" && req.method !== "HEAD") return page(res, 405, "Not allowed", "Use GET.");
    if (settled || exchanging) {
      return page(res, 410, "Sign-in over", "This sign-in has already finished. You can close this tab.");
    }
    const given = url.searchParams.get("state");
    if (!given || !sameSecret(given, state)) {
      options.onRefused?.(
        "Refused a sign-in response whose state does not match this sign-in (an old tab, or a forged link); still waiting",
      );
      return page(
        res,
        400,
        "Sign-in refused",
        "This sign-in response does not belong to the sign-in in progress (wrong state), so nothing was signed in. " +
          "Use the link the sign-in gave you, or start the sign-in again.",
      );
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error || !code) {
      const why = error ? describeOAuthError(error) : "no code came back";
      page(
        res,
        400,
        "Sign-in not completed",
        `The repository did not grant access (${why}). Nothing was signed in.`,
      );
      return settle({
        error: new SignInError(`The sign-in was not completed in the browser (${why}).`),
      });
    }
    exchanging = true;
    try {
      const granted = await options.exchange(code, codeVerifier);
      page(res, 200, "Signed in", "You are signed in to the protocol repository. You can close this tab.");
      settle({ tokens: granted });
    } catch (failure) {
      const why = failure instanceof ActionableError ? ` ${failure.message}` : "";
      page(
        res,
        502,
        "Sign-in failed",
        `The sign-in code could not be exchanged for tokens.${why} Start the sign-in again.`,
      );
      settle({ error: failure instanceof Error ? failure : new SignInError("The code exchange failed.") });
    }
  };

  const listen = (host: string) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((req, res) => {
        handle(req, res).catch(() => {
          if (!res.headersSent) page(res, 500, "Error", "Something went wrong.");
        });
      });
      server.once("error", reject);
      server.listen(Number(redirect.port), host, () => {
        server.off("error", reject);
        resolve(server);
      });
    });
  // Every address the browser may go to must be ours: another program on one of them would receive the
  // code and the state. An address this computer does not have (IPv6 turned off) cannot be anyone's.
  const cannot = (why: string) =>
    new SignInError(
      `Cannot receive the sign-in at ${options.app.redirectUri} (PROTOCOLS_REDIRECT_URI): ${why}.`,
    );
  const { addresses, named } = await redirectAddresses(redirect.hostname);
  const elsewhere = addresses.find((address) => !isLoopback(address));
  if (elsewhere)
    throw cannot(`${redirect.hostname} resolves to ${elsewhere}, which is not this computer's loopback`);
  for (const address of addresses) {
    try {
      servers.push(await listen(address));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT") continue;
      close();
      const where = named ? ` on ${shown(address)}, where a browser may take ${redirect.hostname} to` : "";
      throw cannot(
        code === "EADDRINUSE"
          ? `the port is in use${where} (is another sign-in running?)`
          : `${code ?? "failed"}${where}`,
      );
    }
  }
  if (servers.length === 0) throw cannot(`no address of ${redirect.hostname} can be listened on`);
  timer = setTimeout(() => {
    const minutes = Math.round(timeoutMs / 60_000);
    const span =
      minutes >= 1 ? `${minutes} minute${minutes > 1 ? "s" : ""}` : `${Math.round(timeoutMs / 1000)} s`;
    settle({ error: new SignInError(`No sign-in came back from the browser within ${span}.`) });
  }, timeoutMs);
  timer.unref();

  return {
    authorizeUrl: authorize.toString(),
    tokens,
    close() {
      // A finished flow has closed already, leaving its answer page a moment to get out.
      if (settled) return;
      settle({ error: new SignInError("The sign-in was stopped before the browser came back.") });
      close();
    },
  };
}

/**
 * The addresses of the redirect URI's host: an IP literal is itself; a name is what this computer
 * resolves it to, and "localhost" also both loopback addresses, which browsers take it to whatever the
 * hosts file says.
 */
async function redirectAddresses(hostname: string): Promise<{ addresses: string[]; named: boolean }> {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bare)) return { addresses: [bare], named: false };
  const resolved = await lookup(bare, { all: true }).catch(() => []);
  const builtIn = bare.toLowerCase() === "localhost" ? ["127.0.0.1", "::1"] : [];
  return { addresses: [...new Set([...builtIn, ...resolved.map((found) => found.address)])], named: true };
}

function isLoopback(address: string): boolean {
  return /^(::ffff:)?127\./i.test(address) || address === "::1";
}

function shown(address: string): string {
  return address.includes(":") ? `[${address}]` : address;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · lab-mcp</title>` +
      `<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}</style>` +
      `</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
