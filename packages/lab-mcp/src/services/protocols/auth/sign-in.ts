// One OAuth sign-in, from the listener to the stored tokens, for both ways of starting it:
// `protocols-mcp login` (prints the URL and opens a browser) and the protocols_sign_in tool (asks the
// client to open the URL). Only `present` differs.

import type { CallScope } from "../../../core/credentials/call-scope.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsClient } from "../client.js";
import type { KeptIn } from "../credential-source.js";
import type { Profile } from "../records/protocols.js";
import type { TokenResponse } from "../records/token-response.js";
import type { CodeFlow } from "./code-flow.js";

export interface SignedIn {
  /** Who signed in, when the repository said (the sign-in holds even if asking failed). */
  profile: Profile | undefined;
  /** Where the sign-in was stored; undefined when kept in the client session's memory. */
  keptIn: KeptIn | undefined;
}

export async function signIn(
  client: ProtocolsClient,
  options: {
    timeoutMs?: number;
    onRefused?(reason: string): void;
    /**
     * Starts the flow with `start`, brings its authorize URL to the user and resolves with its
     * tokens; it closes the flow when done (a tool's ask may outlive one request round).
     */
    present(start: () => Promise<CodeFlow>): Promise<TokenResponse>;
    /** The tool call signing in, whose client session a sign-in over HTTP belongs to. */
    scope?: CallScope;
  },
): Promise<SignedIn> {
  client.credentials.assertCanSignIn();
  const start = () =>
    client.credentials.startSignIn({ timeoutMs: options.timeoutMs, onRefused: options.onRefused });
  const tokens = await options.present(start);
  const scope = options.scope ?? {};
  const keptIn = await client.credentials.completeSignIn(tokens, scope);
  // Who signed in: the sign-in just kept is what the caller's ladder climbs to now.
  const profile = await client.credentials
    .required(scope)
    .then((credential) => fetchProfile(client, { ...scope, credential }))
    .then(
      (answer) => answer.profile,
      () => undefined,
    );
  return { profile, keptIn };
}

export function signedInAs(signedIn: SignedIn): string {
  const { profile } = signedIn;
  if (!profile) return "Signed in to the protocol repository";
  const who =
    profile.name && profile.username
      ? `${profile.name} (${profile.username})`
      : (profile.name ?? profile.username);
  return who ? `Signed in to the protocol repository as ${who}` : "Signed in to the protocol repository";
}
