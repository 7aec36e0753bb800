// The OAuth authorization code flow as a native app runs it (RFC 8252): a fresh random state and PKCE
// verifier (RFC 7636, S256), the authorize URL for the user's browser, and a one-shot listener on this
// computer at the redirect URI that receives the browser's redirect, checks the state, and exchanges the
// code (with the verifier) for tokens. Both `protocols-mcp login` and the protocols_sign_in tool run it;
// only how the URL reaches the user differs.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ActionableError } from "../../../core/errors.js";
import {
  ListenError,
  type LocalPage,
  type LocalPageOptions,
  openLocalPage,
  type PageOutcome,
  type PageReply,
  textPage,
} from "../../../core/pages/local-page.js";
import type { TokenResponse } from "../records/token-response.js";
import type { OAuthApp } from "../settings.js";
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
  let exchanging = false;

  const page = await listenAtRedirect(redirect, options.app.redirectUri, {
    expired: SIGN_IN_OVER,
    timeout: {
      ms: timeoutMs,
      error: () => new SignInError(`No sign-in came back from the browser within ${span(timeoutMs)}.`),
    },
    async handle(req, url, settle) {
      if (url.pathname !== redirect.pathname)
        return textPage(404, "Not found", "This is not the sign-in address.");
      if (req.method !== "GET" && req.method !== "HEAD") return textPage(405, "Not allowed", "Use GET.");
      if (exchanging) return SIGN_IN_OVER;
      const given = url.searchParams.get("state");
      if (!given || !sameSecret(given, state)) {
        options.onRefused?.(
          "Refused a sign-in response whose state does not match this sign-in (an old tab, or a forged link); still waiting",
        );
        return WRONG_STATE;
      }
      exchanging = true;
      const outcome = await redeem(url.searchParams, (code) => options.exchange(code, codeVerifier));
      settle(outcome.result);
      return outcome.reply;
    },
  });

  return {
    authorizeUrl: authorizeUrl(options, state, codeVerifier),
    tokens: page.result,
    close: () => page.close(new SignInError("The sign-in was stopped before the browser came back.")),
  };
}

const SIGN_IN_OVER = textPage(
  410,
  "Sign-in over",
  "This sign-in has already finished. You can close this tab.",
);
const WRONG_STATE = textPage(
  400,
  "Sign-in refused",
  "This sign-in response does not belong to the sign-in in progress (wrong state), so nothing was signed in. " +
    "Use the link the sign-in gave you, or start the sign-in again.",
);

/** The repository's authorize endpoint with this flow's state and PKCE challenge. */
export function authorizeUrl(
  options: Pick<CodeFlowOptions, "baseUrl" | "app">,
  state: string,
  codeVerifier: string,
): string {
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
  return authorize.toString();
}

/** The browser came back with the right state: the code traded for tokens, or why not. */
async function redeem(
  params: URLSearchParams,
  exchange: (code: string) => Promise<TokenResponse>,
): Promise<{ result: PageOutcome<TokenResponse>; reply: PageReply }> {
  const error = params.get("error");
  const code = params.get("code");
  if (error || !code) {
    const why = error ? describeOAuthError(error) : "no code came back";
    return {
      result: { error: new SignInError(`The sign-in was not completed in the browser (${why}).`) },
      reply: textPage(
        400,
        "Sign-in not completed",
        `The repository did not grant access (${why}). Nothing was signed in.`,
      ),
    };
  }
  try {
    const tokens = await exchange(code);
    return {
      result: { value: tokens },
      reply: textPage(
        200,
        "Signed in",
        "You are signed in to the protocol repository. You can close this tab.",
      ),
    };
  } catch (failure) {
    const why = failure instanceof ActionableError ? ` ${failure.message}` : "";
    return {
      result: { error: failure instanceof Error ? failure : new SignInError("The code exchange failed.") },
      reply: textPage(
        502,
        "Sign-in failed",
        `The sign-in code could not be exchanged for tokens.${why} Start the sign-in again.`,
      ),
    };
  }
}

/**
 * The one-time page on every address the redirect URI's host may take the browser to. Every one must be
 * ours: another program on one of them would receive the code and the state.
 */
async function listenAtRedirect(
  redirect: URL,
  redirectUri: string,
  options: Omit<LocalPageOptions<TokenResponse>, "hosts" | "port">,
): Promise<LocalPage<TokenResponse>> {
  const cannot = (why: string) =>
    new SignInError(`Cannot receive the sign-in at ${redirectUri} (PROTOCOLS_REDIRECT_URI): ${why}.`);
  const { addresses, named } = await redirectAddresses(redirect.hostname);
  const elsewhere = addresses.find((address) => !isLoopback(address));
  if (elsewhere)
    throw cannot(`${redirect.hostname} resolves to ${elsewhere}, which is not this computer's loopback`);
  try {
    return await openLocalPage({ ...options, hosts: addresses, port: Number(redirect.port) });
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    if (error.code === "no address can be listened on")
      throw cannot(`no address of ${redirect.hostname} can be listened on`);
    const where = named
      ? ` on ${shown(error.address)}, where a browser may take ${redirect.hostname} to`
      : "";
    throw cannot(
      error.code === "EADDRINUSE"
        ? `the port is in use${where} (is another sign-in running?)`
        : `${error.code}${where}`,
    );
  }
}

function span(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 1 ? `${minutes} minute${minutes > 1 ? "s" : ""}` : `${Math.round(ms / 1000)} s`;
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
