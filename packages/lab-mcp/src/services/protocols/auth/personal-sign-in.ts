// Team mode: a person signs in to the repository as themselves from their agent. The sign-in tool
// records the pending sign-in in the shared state and gives the person a connect link of this server
// (never the repository's authorize URL, which anyone it is forwarded to could approve as themselves):
// the link signs the browser in at the MCP authorization server, checks it is the person who started
// the sign-in, binds that browser to the sign-in (a random `__Host-` cookie whose digest the shared
// state keeps), and only then sends the browser to the repository. The repository sends their browser
// back to this server's public callback route, on whichever replica the load balancer picks, which takes
// the pending sign-in (once: a forged or replayed state finds nothing); from a browser not bound to it
// the sign-in ends there, its code unused, so whoever holds that address cannot finish it elsewhere.
// Otherwise it trades the code for tokens, stores them for that person alone, and leaves the outcome
// for the waiting tool call to find, on whichever replica it waits.

import type { IncomingMessage, ServerResponse } from "node:http";
import { ActionableError } from "../../../core/errors.js";
import type { BrowserPerson } from "../../../core/pages/browser-sign-in.js";
import { escapeHtml, type PageReply, sendPage, textPage } from "../../../core/pages/local-page.js";
import type { HttpRoute } from "../../../core/route.js";
import { sleep } from "../../../core/sleep.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsClient } from "../client.js";
import { TEAM_CALLBACK_PATH } from "../settings.js";
import { authorizeUrl, SIGN_IN_TIMEOUT_MS } from "./code-flow.js";
import type { PendingSignIn, PendingSignIns, SignInOutcome } from "./pending-sign-ins.js";
import { describeOAuthError } from "./token-endpoint.js";

/** The callback route on the MCP server: PROTOCOLS_REDIRECT_URI is `<audience origin>` + this. */
const CALLBACK_PATH = TEAM_CALLBACK_PATH;
/** The connect link each person is given: `<public origin>` + this + the sign-in's state. */
const CONNECT_PREFIX = "/oauth/protocols/connect/";
/** The cookie that ties a browser to the sign-in it started, for the callback (`__Host-` prefixed). */
const CONNECT_COOKIE = "lab_mcp_connect";
/** How often a waiting call looks for its sign-in's outcome in the shared state. */
const POLL_EVERY_MS = 250;

/** Starts a sign-in for `person`: the connect link to give them and the state to wait on. */
export async function startPersonalSignIn(
  client: ProtocolsClient,
  pending: PendingSignIns,
  person: { subject: string; email?: string },
): Promise<{ url: string; state: string }> {
  if (!client.credentials.config.oauth) throw new ActionableError("OAuth sign-in is not configured.");
  if (!pending.browser) {
    throw new ActionableError(
      "This team server cannot check who opens a sign-in link, so it starts none: its operator must set " +
        "MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET (the server's own client at the authorization server; " +
        "see docs/deployment.md).",
    );
  }
  const { state } = await pending.begin(person.subject, person.email);
  return { url: `${pending.browser.origin}${CONNECT_PREFIX}${state}`, state };
}

/** Waits for the outcome of the sign-in `state` (only its starter knows it) until stopped or timed out. */
export function waitForSignIn(
  pending: PendingSignIns,
  state: string,
  timeoutMs = SIGN_IN_TIMEOUT_MS,
): { outcome: Promise<SignInOutcome>; stop(): void } {
  let stopped = false;
  const deadline = Date.now() + timeoutMs;
  const outcome = (async () => {
    while (!stopped && Date.now() < deadline) {
      const found = await pending.outcome(state);
      if (found) return found;
      await sleep(POLL_EVERY_MS);
    }
    throw new ActionableError("The sign-in was stopped before the browser came back.");
  })();
  outcome.catch(() => undefined);
  return {
    outcome,
    stop() {
      stopped = true;
      void pending.drop(state).catch(() => undefined);
    },
  };
}

/**
 * The connect link, served by every replica: the browser signs in at the MCP authorization server, and
 * only the person who started the sign-in goes on to the repository, with a cookie bound to it.
 */
export function connectRoute(client: ProtocolsClient, pending: PendingSignIns): HttpRoute {
  return {
    path: CONNECT_PREFIX,
    prefix: true,
    async handle(req: IncomingMessage, res: ServerResponse, url: URL) {
      const state = url.pathname.slice(CONNECT_PREFIX.length);
      const signIn = /^[A-Za-z0-9_-]{43}$/.test(state) ? await pending.peek(state) : undefined;
      const { browser } = pending;
      const { oauth } = client.credentials.config;
      if (!signIn || !browser || !oauth) return sendPage(res, WRONG_STATE);
      if (req.method === "HEAD")
        return sendPage(res, textPage(200, "Sign-in", "Open this address with GET."));
      const visitor = await browser.person(req);
      if (!visitor) return browser.redirectToSignIn(res, url.pathname);
      if (visitor.subject !== signIn.subject) return sendPage(res, notYours(signIn, visitor, url.pathname));
      const repository = authorizeUrl(
        { baseUrl: client.credentials.config.baseUrl, app: oauth },
        state,
        signIn.codeVerifier,
      );
      res.writeHead(303, {
        location: repository,
        "set-cookie": await browser.bindCookie(
          CONNECT_COOKIE,
          connectBinding(state),
          Math.ceil(pending.ttlMs / 1000),
        ),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      });
      res.end();
    },
  };
}

const connectBinding = (state: string) => `protocols connect\n${state}`;

/** A link someone else's assistant started: it says whose it is, and signs no one in. */
function notYours(signIn: PendingSignIn, visitor: BrowserPerson, path: string): PageReply {
  const you = visitor.email ? ` (${visitor.email})` : "";
  const owner = signIn.email ?? "another person";
  return {
    status: 403,
    title: "This sign-in link is not yours",
    body:
      `<h1>This sign-in link is not yours</h1><p>This link was started by the assistant of ${escapeHtml(owner)}, ` +
      `for them alone. You are signed in as someone else${escapeHtml(you)}: approving it at the repository ` +
      `would let their assistant read and write your protocols as you. Nothing was signed in. If someone sent ` +
      `you this link, do not use it; to sign in yourself, ask your own assistant (protocols_sign_in).</p>` +
      `<p><a href="/auth/browser/start?to=${encodeURIComponent(path)}">Sign in as someone else</a></p>`,
  };
}

/** The callback route, served by every replica. */
export function callbackRoute(client: ProtocolsClient, pending: PendingSignIns): HttpRoute {
  return {
    path: CALLBACK_PATH,
    async handle(req: IncomingMessage, res: ServerResponse, url: URL) {
      // A HEAD (a link checker, a prefetch) must not use up the sign-in the person's browser brings.
      if (req.method === "HEAD")
        return sendPage(res, textPage(200, "Sign-in", "Open this address with GET."));
      sendPage(res, await answerCallback(req, client, pending, url.searchParams), true);
    },
  };
}

async function answerCallback(
  req: IncomingMessage,
  client: ProtocolsClient,
  pending: PendingSignIns,
  params: URLSearchParams,
): Promise<PageReply> {
  const state = params.get("state");
  if (!state || !pending.browser) return WRONG_STATE;
  const bound = await pending.browser.hasBoundCookie(req, CONNECT_COOKIE, connectBinding(state));
  // Taken whatever the browser: the state and its code are good once, here and now.
  const signIn = await pending.take(state);
  if (!signIn) return WRONG_STATE;
  await pending.browser.unbind(CONNECT_COOKIE, connectBinding(state)).catch(() => undefined);
  // Only the browser that went through the connect link as the person (a repository link forwarded to
  // someone else comes back without the cookie): elsewhere the sign-in ends, its code never used.
  if (!bound) {
    await pending.settle(state, {
      status: "failed",
      why:
        "The repository's approval came back to a browser that did not start it through the sign-in link " +
        "(an address forwarded to someone else?), so it was discarded. Call protocols_sign_in again and " +
        "open the new link in your own browser.",
    });
    return NOT_THIS_BROWSER;
  }
  const error = params.get("error");
  const code = params.get("code");
  if (error || !code) {
    const why = error ? describeOAuthError(error) : "no code came back";
    await pending.settle(state, {
      status: "failed",
      why: `The sign-in was not completed in the browser (${why}).`,
    });
    return textPage(
      400,
      "Sign-in not completed",
      `The repository did not grant access (${why}). Nothing was signed in.`,
    );
  }
  try {
    const tokens = await client.credentials.exchangeCode(code, signIn.codeVerifier);
    await client.credentials.completePersonalSignIn(signIn.subject, tokens);
  } catch (failure) {
    const why = failure instanceof ActionableError ? ` ${failure.message}` : "";
    await pending.settle(state, {
      status: "failed",
      why: `The sign-in code could not be exchanged for tokens.${why}`,
    });
    return textPage(
      502,
      "Sign-in failed",
      `The sign-in code could not be exchanged for tokens.${why} Start the sign-in again.`,
    );
  }
  const asPerson = {
    clientSession: {
      caller: "callback",
      isolated: true,
      person: { subject: signIn.subject, accessToken: "" },
    },
  };
  const profile = await client.credentials
    .required(asPerson)
    .then((credential) => fetchProfile(client, { ...asPerson, credential }))
    .then(
      (answer) => answer.profile,
      () => undefined,
    );
  const username = profile?.username ?? null;
  const name = profile?.name ?? null;
  await pending.settle(state, { status: "signed_in", username, name });
  const who =
    name && username ? ` as ${name} (${username})` : username || name ? ` as ${username ?? name}` : "";
  return textPage(
    200,
    "Signed in",
    `You are signed in to the protocol repository${who}. You can close this tab.`,
  );
}

const NOT_THIS_BROWSER = textPage(
  403,
  "Sign-in refused",
  "This sign-in came back to a browser that did not start it through its own sign-in link, so nothing was " +
    "signed in, and the sign-in is over. If someone sent you a repository address, do not approve it; to " +
    "sign in yourself, ask your own assistant (protocols_sign_in) and open the link it gives you.",
);

const WRONG_STATE = textPage(
  400,
  "Sign-in refused",
  "This sign-in response belongs to no sign-in in progress (an old or used link, or a forged one), so nothing " +
    "was signed in. Call protocols_sign_in again from your agent.",
);
