import { z } from "zod";
import { defineTool, reply } from "../../../core/tool.js";
import type { ProtocolsClient } from "../client.js";
import type { SignedOutFrom } from "../credential-source.js";

/** What each removal is called in the answer. */
const REMOVED_FROM: Record<SignedOutFrom, string> = {
  your_sign_in:
    "your own sign-in (stored encrypted in the shared state under your identity, on every replica)",
  session_memory: "this client session's sign-in (kept in the server's memory)",
  token_file: "the sign-in in the token file",
  shared_state: "the sign-in in the shared state of the server's replicas",
  nothing_configured: "no sign-in: this server has no OAuth application configured",
};

export const signOutTool = defineTool({
  name: "protocols_sign_out",
  title: "Sign Out of the Protocol Repository",
  description:
    "Sign out of the protocol repository: deletes the stored OAuth sign-in this server uses for you and says " +
    "what was removed. The grant stays listed at the repository until you revoke it there.",
  // Not read-only: it deletes stored tokens. Not destructive: signing in again brings access back.
  // Idempotent: a second call finds nothing to remove. Closed world: the repository documents no
  // revoke endpoint, so only what this server keeps is removed.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: "account",
  // It forgets the caller's sign-in; it never needs one.
  credential: "none",
  input: {},
  output: {
    removed: z.boolean(),
    from: z.enum(["your_sign_in", "session_memory", "token_file", "shared_state", "nothing_configured"]),
  },
  async handler(_args, ctx, client: ProtocolsClient) {
    const { removed, from } = await client.credentials.signOut(ctx);
    const what = REMOVED_FROM[from];
    if (from === "nothing_configured") return reply({ removed, from }, `Nothing to sign out of: ${what}.`);
    const text = removed
      ? `Signed out of the protocol repository: removed ${what}. Call protocols_sign_in to sign in again.`
      : `Nothing to remove: ${what} was not there (already signed out).`;
    const clientToken = client.credentials.config.clientToken
      ? " This server also uses a client token (PROTOCOLS_ACCESS_TOKEN) set by its operator, which stays."
      : "";
    return reply({ removed, from }, `${text}${clientToken}`);
  },
});
