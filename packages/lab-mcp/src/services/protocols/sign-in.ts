// One OAuth sign-in, from the listener to the stored tokens, for both ways of starting it:
// `protocols-mcp login` (prints the URL and opens a browser) and the protocols_sign_in tool (asks the
// client to open the URL). Only `present` differs.
import type { SessionScoped } from "../../core/context.js";
import type { RequestScope } from "../../core/http/remote-client.js";
import type { CodeFlow } from "./auth/code-flow.js";
import type { ProtocolsApi } from "./client.js";
import type { Profile, TokenResponse } from "./types.js";

export interface SignedIn {
  /** Who signed in, when the repository said (the sign-in holds even if asking failed). */
  profile: Profile | undefined;
  /** The token file the sign-in was stored in; undefined when kept in the client session's memory. */
  tokenFile: string | undefined;
}

export async function signIn(
  api: ProtocolsApi,
  options: {
    timeoutMs?: number;
    onRefused?(reason: string): void;
    /** Brings the authorize URL to the user and resolves with the flow's tokens. */
    present(flow: CodeFlow): Promise<TokenResponse>;
    /** The tool call signing in, whose client session a sign-in over HTTP belongs to. */
    scope?: RequestScope & SessionScoped;
  },
): Promise<SignedIn> {
  const flow = await api.credentials.startSignIn({
    timeoutMs: options.timeoutMs,
    onRefused: options.onRefused,
  });
  try {
    const tokens = await options.present(flow);
    const scope = options.scope ?? {};
    const tokenFile = await api.credentials.completeSignIn(tokens, scope);
    const profile = await api.profile(scope).then(
      (answer) => answer.profile,
      () => undefined,
    );
    return { profile, tokenFile };
  } finally {
    flow.close();
  }
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
