// Authorization codes as both servers keep them: each holds what was approved at /authorize until its
// client redeems it, once, within its life, by the server's clock. Redeeming starts a token family; a
// code that comes back after that means it leaked, so its family is revoked (RFC 6749 section 4.1.2,
// OAuth 2.1 section 4.1.3). A check of the request against the code (redirect_uri, PKCE, resource)
// that fails leaves the code to its client, so a retry with the right values still works.
import type { Clock } from "../clock.js";

/** Why a code is refused before the server's own checks run. */
export type CodeRefusal = "unknown" | "other_client" | "reused" | "expired";

export type CodeRedemption<G, F extends string> =
  | { ok: true; grant: G; family: string }
  | { ok: false; reason: CodeRefusal | F };

/** The token endpoint's words for the refusals both servers share. */
export const CODE_FAILURES = {
  unknown: "The authorization code is not valid.",
  other_client: "The authorization code was issued to another client.",
  reused: "The authorization code has already been used; the tokens issued for it are revoked.",
  expired: "The authorization code has expired.",
  redirect_mismatch: "redirect_uri does not match the one in the authorization request.",
  verifier_mismatch: "code_verifier does not match the code_challenge of the authorization request.",
} as const;

export interface CodeStoreOptions {
  clock: Clock;
  /** A fresh, unguessable code in the server's own shape. */
  newCode: () => string;
  /** Revokes every token of a family whose code was presented again. */
  revokeFamily: (family: string) => void;
}

export class AuthorizationCodes<G extends { clientId: string }> {
  readonly #codes = new Map<string, { grant: G; expiresAt: number; family: string | undefined }>();

  constructor(private readonly options: CodeStoreOptions) {}

  issue(grant: G, lifetimeSec: number): string {
    const code = this.options.newCode();
    this.#codes.set(code, {
      grant,
      expiresAt: this.options.clock.now() + lifetimeSec * 1000,
      family: undefined,
    });
    return code;
  }

  /**
   * Checks in RFC order (the code, its client, once, its life), then the server's `check`; on success
   * `startFamily` names the family of the tokens it will issue.
   */
  redeem<F extends string>(
    code: string,
    clientId: string,
    check: (grant: G) => F | undefined,
    startFamily: (grant: G, code: string) => string,
  ): CodeRedemption<G, F> {
    const stored = this.#codes.get(code);
    if (!stored) return { ok: false, reason: "unknown" };
    if (stored.grant.clientId !== clientId) return { ok: false, reason: "other_client" };
    if (stored.family !== undefined) {
      this.options.revokeFamily(stored.family);
      return { ok: false, reason: "reused" };
    }
    if (this.options.clock.now() >= stored.expiresAt) {
      this.#codes.delete(code);
      return { ok: false, reason: "expired" };
    }
    const failure = check(stored.grant);
    if (failure !== undefined) return { ok: false, reason: failure };
    stored.family = startFamily(stored.grant, code);
    return { ok: true, grant: stored.grant, family: stored.family };
  }
}
