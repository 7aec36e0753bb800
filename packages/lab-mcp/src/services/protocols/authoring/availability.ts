// When the writing tools are offered. Writing needs a signed-in OAuth account: a client token
// (PROTOCOLS_ACCESS_TOKEN) stands for the application's owner and reads only, and without an OAuth
// application nobody can sign in. Destructive writes also need MCP_ALLOW_DESTRUCTIVE.

import { ActionableError } from "../../../core/errors.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";

const SIGN_IN_SETUP =
  "set PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI (your application on the repository)";

/** Why this server offers no writing tools; undefined when it does. */
export function authoringUnavailable(client: ProtocolsClient): string | undefined {
  const { config } = client.credentials;
  if (config.clientToken) {
    return (
      "Writing protocols needs a signed-in account (OAuth), and this server uses the client token in " +
      `PROTOCOLS_ACCESS_TOKEN, which only reads. To write drafts, ${SIGN_IN_SETUP} instead of ` +
      "PROTOCOLS_ACCESS_TOKEN, restart the server and sign in with protocols_sign_in."
    );
  }
  if (!config.oauth) {
    return `Writing protocols needs a signed-in account (OAuth): ${SIGN_IN_SETUP}, restart the server and sign in with protocols_sign_in.`;
  }
  return undefined;
}

/**
 * Refuses with the reason when this server offers no writing; otherwise makes sure the call's credential
 * (decided at the boundary: a sign-in that is missing or stopped working said so there) is a sign-in.
 */
export function requireAuthoring(client: ProtocolsClient, ctx: ProtocolsCall): void {
  const why = authoringUnavailable(client);
  if (why) throw new ActionableError(why);
  const { credential } = ctx;
  if (credential.kind !== "oauth")
    throw new ActionableError(authoringUnavailable(client) ?? "Writing needs an OAuth sign-in.");
}
