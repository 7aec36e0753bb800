// Whose "my" and "your" are: over HTTP with the operator's credential (a client token set for the
// server, or the operator's sign-in), every caller acts as that one account, which is not theirs, so
// the answers that say "my" or "your" name it.
import type { CallScope } from "../../../core/credentials/call-scope.js";
import { nameWithId } from "../../../core/render.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import type { Profile } from "../records/protocols.js";

/** The account's name as a line of ours shows it: "Ada Okafor (ada-okafor)". */
export function accountName(profile: Profile): string {
  const { name, username } = profile;
  if (name && username) return nameWithId(name, username);
  return name ?? username ?? "an account whose name the repository did not give";
}

/**
 * The sentence that says whose account a shared credential is; "not as you" only when the caller is a
 * person the server knows (team mode), as one person may serve themselves over HTTP too.
 */
export function sharedAccountLine(profile: Profile, scope: CallScope): string {
  const whom = scope.clientSession?.person
    ? "this server acts as that one account for everyone, not as you"
    : "the one account this server acts as for every client";
  return `"My" and "your" here mean ${accountName(profile)}: ${whom}.`;
}

/** The shared-account sentence for this call (one profile request), or undefined when it acts as the caller. */
export async function sharedAccountNote(
  client: ProtocolsClient,
  ctx: ProtocolsCall,
): Promise<string | undefined> {
  if (!client.credentials.isShared(ctx.credential, ctx)) return undefined;
  const { profile } = await fetchProfile(client, ctx);
  return sharedAccountLine(profile, ctx);
}
