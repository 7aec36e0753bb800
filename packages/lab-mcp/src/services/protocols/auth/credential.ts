// A credential of the protocol repository: how it signs requests, what to call it, and a stable id that
// names it (for its rate limiters) without containing it.
import { createHash } from "node:crypto";
import type { AuthStrategy } from "../../../core/http/auth.js";

export type SignInKind = "client_token" | "oauth";

export interface ProtocolsCredential extends AuthStrategy {
  kind: SignInKind;
  /** Said to the agent, e.g. "client token (PROTOCOLS_ACCESS_TOKEN)". */
  description: string;
  /** Never the token itself: a digest or a random name. */
  id: string;
}

/** A CLIENT_ACCESS_TOKEN: sent as it is, it does not expire and cannot be renewed. */
export function clientTokenCredential(token: string): ProtocolsCredential {
  return {
    kind: "client_token",
    description: "client token (PROTOCOLS_ACCESS_TOKEN)",
    id: `client:${createHash("sha256").update(token).digest("hex").slice(0, 16)}`,
    authorize(headers) {
      headers.set("authorization", `Bearer ${token}`);
    },
  };
}
