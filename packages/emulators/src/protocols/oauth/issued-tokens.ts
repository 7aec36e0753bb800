// Authorization codes, access tokens and refresh tokens, with their lifetimes read from the emulator's
// clock. Tokens from one code form a family: a refresh replaces the family's pair (rotation, as the real
// service documents: "old token and refresh token will stop working"), and replaying a used code revokes
// the whole family (RFC 6749 section 4.1.2).
import type { Clock } from "../../common/clock.js";
import { AuthorizationCodes, type CodeRefusal } from "../../common/oauth/authorization-codes.js";
import { verifierMatches } from "../../common/oauth/pkce.js";
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
        | CodeRefusal
        | "redirect_mismatch"
        | "verifier_missing"
        | "verifier_mismatch"
        | "verifier_unexpected";
    };

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  userId: number;
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
  readonly #codes: AuthorizationCodes<CodeGrant>;
  #access = new Map<string, StoredAccess>();
  #refresh = new Map<string, RefreshGrant>();

  constructor(private readonly clock: Clock) {
    // A code's tokens form the family named by the code itself.
    this.#codes = new AuthorizationCodes({
      clock,
      newCode: newAuthorizationCode,
      revokeFamily: (family) => this.#revokeFamily(family),
    });
  }

  issueCode(
    grant: { clientId: string; redirectUri: string; userId: number; codeChallenge?: string },
    lifetimeSeconds: number,
  ): string {
    return this.#codes.issue({ ...grant, codeChallenge: grant.codeChallenge }, lifetimeSeconds);
  }

  /** Checks are in RFC order; a failed exchange by the right client leaves the code usable. */
  exchangeCode(
    code: string,
    clientId: string,
    redirectUri: string,
    accessLifetimeSeconds: number,
    codeVerifier?: string,
  ): CodeExchange {
    const outcome = this.#codes.redeem(
      code,
      clientId,
      (grant) =>
        grant.redirectUri !== redirectUri
          ? "redirect_mismatch"
          : pkceFailure(grant.codeChallenge, codeVerifier),
      (_grant, code) => code,
    );
    if (!outcome.ok) return outcome;
    const { userId } = outcome.grant;
    const tokens = this.#issuePair(clientId, userId, outcome.family, accessLifetimeSeconds);
    return { ok: true, tokens, userId };
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
  return verifierMatches(verifier, challenge) ? undefined : "verifier_mismatch";
}
