import { z } from "zod";
import { ActionableError } from "../../../core/errors.js";
import { defineTool, reply } from "../../../core/tool.js";
import { SIGN_IN_TIMEOUT_MS, SignInError } from "../auth/code-flow.js";
import type { ProtocolsApi } from "../client.js";
import { signedInAs, signIn } from "../sign-in.js";

export const signInTool = defineTool({
  name: "protocols_sign_in",
  title: "Sign In to the Protocol Repository",
  description:
    "Sign in to the protocol repository with OAuth: your client opens the repository's sign-in page, you approve " +
    "there, and the server keeps the tokens (renewing them by itself) for every protocols tool. Call it when a " +
    "tool says you are not signed in or your sign-in expired; protocols_get_profile shows who is signed in.",
  // Not read-only: it replaces the stored sign-in (a file on this computer) and creates a new grant
  // with new tokens at the repository. Not destructive: nothing is lost that signing in again cannot
  // bring back. Not idempotent: every call is a new authorization with new tokens.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "account",
  input: {},
  // Who signed in and where the sign-in is kept; never a token.
  output: {
    username: z.string().nullable().describe("Who signed in, when the repository said."),
    name: z.string().nullable(),
    kept_in: z
      .enum(["token_file", "shared_state", "session_memory"])
      .describe(
        "A token file, the shared state of the server's replicas (Redis), or this HTTP session's memory.",
      ),
    token_file: z.string().nullable().describe("The token file's path; null when kept elsewhere."),
  },
  async handler(_args, ctx, api: ProtocolsApi) {
    if (!ctx.canOpenUrls() && api.credentials.config.oauth) {
      throw new ActionableError(
        "This client cannot open the sign-in page (it lacks URL elicitation). Run 'protocols-mcp login' in a " +
          "terminal with the same settings, or set PROTOCOLS_ACCESS_TOKEN (a client token) instead, then try again.",
      );
    }
    const signedIn = await signIn(api, {
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
