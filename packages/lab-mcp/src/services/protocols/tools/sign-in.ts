import { z } from "zod";
import type { Person } from "../../../core/caller.js";
import type { ToolContext } from "../../../core/context.js";
import { ActionableError } from "../../../core/errors.js";
import { defineTool, reply } from "../../../core/tool.js";
import { SIGN_IN_TIMEOUT_MS, SignInError } from "../auth/code-flow.js";
import type { PendingSignIns } from "../auth/pending-sign-ins.js";
import { startPersonalSignIn, waitForSignIn } from "../auth/personal-sign-in.js";
import { type SignedIn, signedInAs, signIn } from "../auth/sign-in.js";
import type { ProtocolsClient } from "../client.js";

export const signInTool = defineTool({
  name: "protocols_sign_in",
  title: "Sign In to the Protocol Repository",
  description:
    "Sign in to the protocol repository with OAuth: your client opens its sign-in page, you approve, and the " +
    "server keeps the tokens for every protocols tool. Call it when a tool says you are not signed in.",
  // Not read-only: it replaces the stored sign-in (a file on this computer) and creates a new grant
  // with new tokens at the repository. Not destructive: nothing is lost that signing in again cannot
  // bring back. Not idempotent: every call is a new authorization with new tokens.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "account",
  // It makes the sign-in the credential comes from: nothing to climb before it.
  credential: "none",
  input: {},
  // Who signed in and where the sign-in is kept; never a token.
  output: {
    username: z.string().nullable(),
    name: z.string().nullable(),
    kept_in: z.enum(["token_file", "shared_state", "session_memory", "your_sign_in", "not_yet"]),
    token_file: z.string().nullable(),
    sign_in_url: z.string().nullable().describe("not_yet: open it to sign in."),
  },
  async handler(_args, ctx, client: ProtocolsClient) {
    const { person } = ctx.clientSession;
    const { pending } = client.credentials;
    if (person && pending && client.credentials.perPerson)
      return personalSignIn(ctx, client, pending, person);
    if (!ctx.canOpenUrls() && client.credentials.config.oauth) {
      throw new ActionableError(
        "This client cannot open the sign-in page (it lacks URL elicitation). Run 'protocols-mcp login' in a " +
          "terminal with the same settings, or set PROTOCOLS_ACCESS_TOKEN (a client token) instead, then try again.",
      );
    }
    const signedIn = await signIn(client, {
      timeoutMs: SIGN_IN_TIMEOUT_MS,
      onRefused: (reason) => void ctx.log("info", reason),
      scope: ctx,
      async present(start) {
        const outcome = await ctx.openUrl({
          message: "Sign in to the protocol repository and approve access for lab-mcp.",
          open: async () => {
            const flow = await start();
            return { url: flow.authorizeUrl, until: flow.tokens, close: flow.close };
          },
          timeoutMs: SIGN_IN_TIMEOUT_MS,
          waitingMessage: "Waiting for the sign-in in the browser",
        });
        if (outcome.status === "done") return outcome.value;
        if (outcome.status === "timeout") {
          throw new ActionableError(
            "No sign-in came back from the browser within 5 minutes. Call protocols_sign_in again.",
          );
        }
        if (outcome.status === "declined")
          throw new ActionableError("Sign-in cancelled: the page was not opened.");
        throw new ActionableError(
          "This client cannot open the sign-in page. Run 'protocols-mcp login' in a terminal, or set PROTOCOLS_ACCESS_TOKEN.",
        );
      },
    }).catch((error: unknown) => {
      if (error instanceof SignInError)
        throw new ActionableError(`${error.message} Call protocols_sign_in to try again.`);
      throw error;
    });
    const { keptIn } = signedIn;
    const done = {
      username: signedIn.profile?.username ?? null,
      name: signedIn.profile?.name ?? null,
      kept_in: keptIn?.kind ?? ("session_memory" as const),
      token_file: keptIn?.kind === "token_file" ? keptIn.where : null,
      sign_in_url: null,
    };
    if (keptIn === undefined && ctx.clientSession.thisCallOnly) {
      return reply(
        done,
        `${signedInAs(signedIn)}, for this call only: this client reaches the server over HTTP with no session, ` +
          "and the server has no MCP_HTTP_TOKEN to know it by, so the sign-in cannot be kept for its next calls. " +
          "Set MCP_HTTP_TOKEN (the sign-in then lasts for its holder) or sign in with 'protocols-mcp login' on the " +
          "server's computer.",
      );
    }
    if (keptIn === undefined) {
      return reply(
        done,
        `${signedInAs(signedIn)}. This server is shared over HTTP, so the sign-in is kept in its memory for this ` +
          "session only (never stored, used for no other client) and renews itself; every protocols tool of this " +
          "session now works with it.",
      );
    }
    if (keptIn.kind === "shared_state") {
      return reply(
        done,
        `${signedInAs(signedIn)}. The tokens are stored encrypted in ${keptIn.where} and renew themselves; every ` +
          "replica of this server now works with this sign-in.",
      );
    }
    return reply(
      done,
      `${signedInAs(signedIn)}. The tokens are stored in ${keptIn.where} (readable only by you) and renew ` +
        "themselves; every protocols tool now works with this sign-in.",
    );
  },
});

/**
 * Team mode: the person signs in as themselves. The address is this server's connect link (it signs the
 * browser in and lets only this person on to the repository); the repository comes back to this
 * server's public callback (on any replica); without URL elicitation the address is given in the
 * answer for them to open.
 */
async function personalSignIn(
  ctx: ToolContext,
  client: ProtocolsClient,
  pending: PendingSignIns,
  person: Person,
) {
  const notYet = { username: null, name: null, kept_in: "not_yet" as const, token_file: null };
  if (!ctx.canOpenUrls()) {
    const { url } = await startPersonalSignIn(client, pending, person);
    return reply(
      { ...notYet, sign_in_url: url },
      `Open this address in your browser to sign in to the protocol repository as yourself (it works for the ` +
        `next ${Math.round(SIGN_IN_TIMEOUT_MS / 60_000)} minutes, once): ${url}\nThen call the protocols tool again.`,
    );
  }
  const outcome = await ctx.openUrl({
    message: "Sign in to the protocol repository as yourself and approve access for lab-mcp.",
    open: async () => {
      const { url, state } = await startPersonalSignIn(client, pending, person);
      const waiting = waitForSignIn(pending, state);
      // The OAuth state (in the URL the client already holds) lets any replica wait for this sign-in.
      return { url, until: waiting.outcome, close: waiting.stop, resumeToken: state };
    },
    // The retry landed on another replica than the one that started the sign-in: wait for it here.
    resume: (state) => {
      const waiting = waitForSignIn(pending, state);
      return { url: "", until: waiting.outcome, close: waiting.stop };
    },
    timeoutMs: SIGN_IN_TIMEOUT_MS,
    waitingMessage: "Waiting for the sign-in in the browser",
  });
  if (outcome.status === "timeout")
    throw new ActionableError(
      "No sign-in came back from the browser within 5 minutes. Call protocols_sign_in again.",
    );
  if (outcome.status !== "done") throw new ActionableError("Sign-in cancelled: the page was not opened.");
  const done = outcome.value;
  if (done.status === "failed") throw new ActionableError(`${done.why} Call protocols_sign_in to try again.`);
  const signedIn: SignedIn = {
    profile: { username: done.username ?? undefined, name: done.name ?? undefined },
    keptIn: undefined,
  };
  return reply(
    {
      username: done.username,
      name: done.name,
      kept_in: "your_sign_in" as const,
      token_file: null,
      sign_in_url: null,
    },
    `${signedInAs(signedIn)}. The sign-in is yours alone: stored encrypted in the shared state under your ` +
      "identity, renewed by itself, used by every replica for your calls only. protocols_sign_out removes it.",
  );
}
