// Team mode: a person signs in to the repository as themselves from their agent. The sign-in tool
// records the pending sign-in in the shared state and gives the person the authorize URL; the
// repository sends their browser back to this server's public callback route, on whichever replica
// the load balancer picks, which takes the pending sign-in (once: a forged or replayed state finds
// nothing), trades the code for tokens, stores them for that person alone, and leaves the outcome for
// the waiting tool call to find, on whichever replica it waits.

import type { IncomingMessage, ServerResponse } from "node:http";
import { ActionableError } from "../../../core/errors.js";
import { type PageReply, sendPage, textPage } from "../../../core/pages/local-page.js";
import type { HttpRoute } from "../../../core/route.js";
import { sleep } from "../../../core/sleep.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsApi } from "../client.js";
import { TEAM_CALLBACK_PATH } from "../settings.js";
import { authorizeUrl, SIGN_IN_TIMEOUT_MS } from "./code-flow.js";
import type { PendingSignIns, SignInOutcome } from "./pending-sign-ins.js";
import { describeOAuthError } from "./token-endpoint.js";

/** The callback route on the MCP server: PROTOCOLS_REDIRECT_URI is `<audience origin>` + this. */
const CALLBACK_PATH = TEAM_CALLBACK_PATH;
/** How often a waiting call looks for its sign-in's outcome in the shared state. */
const POLL_EVERY_MS = 250;

/** Starts a sign-in for `subject`: the authorize URL to give them and the state to wait on. */
export async function startPersonalSignIn(
  api: ProtocolsApi,
  pending: PendingSignIns,
  subject: string,
): Promise<{ url: string; state: string }> {
  const { oauth } = api.credentials.config;
  if (!oauth) throw new ActionableError("OAuth sign-in is not configured.");
  const { state, codeVerifier } = await pending.begin(subject);
  return {
    url: authorizeUrl({ baseUrl: api.credentials.config.baseUrl, app: oauth }, state, codeVerifier),
    state,
  };
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

/** The callback route, served by every replica. */
export function callbackRoute(api: ProtocolsApi, pending: PendingSignIns): HttpRoute {
  return {
    path: CALLBACK_PATH,
    async handle(req: IncomingMessage, res: ServerResponse, url: URL) {
      // A HEAD (a link checker, a prefetch) must not use up the sign-in the person's browser brings.
      if (req.method === "HEAD")
        return sendPage(res, textPage(200, "Sign-in", "Open this address with GET."));
      sendPage(res, await answerCallback(api, pending, url.searchParams), true);
    },
  };
}

async function answerCallback(
  api: ProtocolsApi,
  pending: PendingSignIns,
  params: URLSearchParams,
): Promise<PageReply> {
  const state = params.get("state");
  const signIn = state ? await pending.take(state) : undefined;
  if (!state || !signIn) return WRONG_STATE;
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
    const tokens = await api.credentials.exchangeCode(code, signIn.codeVerifier);
    await api.credentials.completePersonalSignIn(signIn.subject, tokens);
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
  const profile = await fetchProfile(api, asPerson).then(
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

const WRONG_STATE = textPage(
  400,
  "Sign-in refused",
  "This sign-in response belongs to no sign-in in progress (an old or used link, or a forged one), so nothing " +
    "was signed in. Call protocols_sign_in again from your agent.",
);
