// A credential of the lab data platform: how it signs requests, what to call it, and a stable id that
// names it (for its rate limiter and cursor cache) without containing it.
import { createHash } from "node:crypto";
import type { AuthStrategy } from "../../../core/http/auth.js";

export type AuthMethod = "api_key" | "client_credentials" | "oidc";

export interface LabdataCredential extends AuthStrategy {
  method: AuthMethod;
  /** Said to the agent, e.g. "API key (HTTP Basic)". */
  description: string;
  /** A one-way digest of the secret: safe to use as a key, never reversible. */
  id: string;
  /**
   * The rate budget it counts against, when not its own id: a person's passed-through tokens change as
   * they are refreshed, while the platform counts the person.
   */
  budgetId?: string;
}

export function credentialId(method: AuthMethod, secret: string): string {
  return `${method}:${createHash("sha256").update(secret).digest("hex").slice(0, 16)}`;
}
