// Authorization codes, access tokens and refresh tokens, with their lifetimes read from the emulator's
// clock. Tokens from one code form a family: a refresh replaces the family's pair (rotation, as the real
// service documents: "old token and refresh token will stop working"), and replaying a used code revokes
// the whole family (RFC 6749 section 4.1.2).
import { createHash } from "node:crypto";
import type { Clock } from "../../common/clock.js";
import { secretsEqual } from "../../common/http.js";
import { newAccessToken, newAuthorizationCode, newRefreshToken } from "../new-secrets.js";

export type TokenKind = "CLIENT_ACCESS_TOKEN" | "OAUTH_ACCESS_TOKEN";

export interface AccessGrant {
  kind: TokenKind;
  userId: number;
  clientId: string;
  /** Clock milliseconds; null for client tokens, which do not expire. */
  expiresAt: number | null;
}

/** What a code exchange or a refresh hands out. */
export interface TokenPair {
  userId: number;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export type AccessCheck =
  | { status: "valid"; grant: AccessGrant }
  | { status: "expired"; grant: AccessGrant }
  | { status: "invalid" };

export type CodeExchange =
  | { ok: true; tokens: TokenPair; userId: number }
  | {
      ok: false;
      reason:
        | "unknown"
        | "expired"
        | "reused"
        | "other_client"
        | "redirect_mismatch"
        | "verifier_missing"
        | "verifier_mismatch"
        | "verifier_unexpected";
    };

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  userId: number;
  expiresAt: number;
  used: boolean;
  /** PKCE S256 challenge sent on authorize; the exchange must then prove it with the verifier. */
  codeChallenge: string | undefined;
}

interface RefreshGrant {
  clientId: string;
  userId: number;
  family: string;
}

interface StoredAccess extends AccessGrant {
  family: string | null;
}

/** The codes and tokens this emulator has issued, and what each one grants. */
export class IssuedTokens {
  #codes = new Map<string, CodeGrant>();
  #access = new Map<string, StoredAccess>();
  #refresh = new Map<string, RefreshGrant>();

  constructor(private readonly clock: Clock) {}

  issueCode(
    grant: { clientId: string; redirectUri: string; userId: number; codeChallenge?: string },
    lifetimeSeconds: number,
  ): string {
    const code = newAuthorizationCode();
    this.#codes.set(code, {
      ...grant,
      codeChallenge: grant.codeChallenge,
      expiresAt: this.clock.now() + lifetimeSeconds * 1000,
      used: false,
    });
    return code;
  }

  /** Checks are in RFC order; a failed exchange by the right client leaves the code usable. */
  exchangeCode(
    code: string,
    clientId: string,
    redirectUri: string,
    accessLifetimeSeconds: number,
    codeVerifier?: string,
  ): CodeExchange {
    const grant = this.#codes.get(code);
    if (!grant) return { ok: false, reason: "unknown" };
    if (grant.clientId !== clientId) return { ok: false, reason: "other_client" };
    if (grant.used) {
      this.#revokeFamily(code);
      return { ok: false, reason: "reused" };
    }
    if (this.clock.now() >= grant.expiresAt) {
      this.#codes.delete(code);
      return { ok: false, reason: "expired" };
    }
    if (grant.redirectUri !== redirectUri) return { ok: false, reason: "redirect_mismatch" };
    const pkce = pkceFailure(grant.codeChallenge, codeVerifier);
    if (pkce) return { ok: false, reason: pkce };
    grant.used = true;
    const tokens = this.#issuePair(clientId, grant.userId, code, accessLifetimeSeconds);
    return { ok: true, tokens, userId: grant.userId };
  }

  /** A new pair for a valid refresh token of this client; the old access and refresh tokens are revoked. */
  refresh(refreshToken: string, clientId: string, accessLifetimeSeconds: number): TokenPair | undefined {
    const grant = this.#refresh.get(refreshToken);
    if (!grant || grant.clientId !== clientId) return undefined;
    this.#revokeFamily(grant.family);
    return this.#issuePair(clientId, grant.userId, grant.family, accessLifetimeSeconds);
  }

  issueClientToken(clientId: string, userId: number): string {
    const token = newAccessToken();
    this.#access.set(token, { kind: "CLIENT_ACCESS_TOKEN", userId, clientId, expiresAt: null, family: null });
    return token;
  }

  check(accessToken: string): AccessCheck {
    const stored = this.#access.get(accessToken);
    if (!stored) return { status: "invalid" };
    const { family: _family, ...grant } = stored;
    if (grant.expiresAt !== null && this.clock.now() >= grant.expiresAt) return { status: "expired", grant };
    return { status: "valid", grant };
  }

  #issuePair(clientId: string, userId: number, family: string, lifetimeSeconds: number): TokenPair {
    const accessToken = newAccessToken();
    const refreshToken = newRefreshToken();
    this.#access.set(accessToken, {
      kind: "OAUTH_ACCESS_TOKEN",
      userId,
      clientId,
      expiresAt: this.clock.now() + lifetimeSeconds * 1000,
      family,
    });
    this.#refresh.set(refreshToken, { clientId, userId, family });
    return { userId, accessToken, refreshToken, expiresIn: lifetimeSeconds };
  }

  #revokeFamily(family: string): void {
    for (const [token, grant] of this.#access) if (grant.family === family) this.#access.delete(token);
    for (const [token, grant] of this.#refresh) if (grant.family === family) this.#refresh.delete(token);
  }
}

/** RFC 7636 section 4.6 for S256; a verifier for a code requested without a challenge is a downgrade. */
function pkceFailure(
  challenge: string | undefined,
  verifier: string | undefined,
): "verifier_missing" | "verifier_mismatch" | "verifier_unexpected" | undefined {
  if (challenge === undefined) return verifier === undefined ? undefined : "verifier_unexpected";
  if (verifier === undefined) return "verifier_missing";
  const computed = createHash("sha256").update(verifier, "ascii").digest("base64url");
  return secretsEqual(computed, challenge) ? undefined : "verifier_mismatch";
}
