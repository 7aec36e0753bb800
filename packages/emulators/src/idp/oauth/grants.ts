// What the authorization server has granted: authorization codes, and the token families they start.
// A family is one sign-in of one person to one client for one resource: its access tokens (JWTs, known
// here by jti) and its one live refresh token. A refresh rotates the refresh token; presenting a rotated
// one again, or redeeming a code twice, means it leaked, so the whole family is revoked (OAuth 2.1
// sections 4.1.3 and 4.3.1). Times are read from the provider's clock.
import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../../common/clock.js";
import { AuthorizationCodes, type CodeRefusal } from "../../common/oauth/authorization-codes.js";

/** What a person approved at /authorize, held by the code until it is redeemed. */
export interface ApprovedRequest {
  clientId: string;
  redirectUri: string;
  subject: string;
  /** RFC 7636 S256 challenge. */
  codeChallenge: string;
  /** RFC 8707: the one resource the tokens are for (their aud). */
  resource: string;
  scope: string;
  nonce?: string;
}

export interface Family {
  id: string;
  clientId: string;
  subject: string;
  resource: string;
  scope: string;
  revoked: boolean;
}

interface RefreshRecord {
  family: string;
  expiresAt: number;
  /** Replaced by a newer refresh token: presenting it again is a replay. */
  rotated: boolean;
}

/** An access token this server signed, as the admin API lists it. */
export interface IssuedAccessToken {
  jti: string;
  subject: string;
  clientId: string;
  audience: string;
  scope: string;
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
  family: string;
  /** SHA-256 (hex) of the token itself, so revocation can find it by value. */
  tokenHash: string;
}

export type CodeRedemption<F extends string> =
  | { ok: true; family: Family; request: ApprovedRequest }
  | { ok: false; reason: CodeRefusal | F };

export type RefreshOutcome =
  | { ok: true; family: Family }
  | { ok: false; reason: "unknown" | "expired" | "reused" | "other_client" | "revoked" };

const opaque = (bytes: number): string => randomBytes(bytes).toString("base64url");

export class Grants {
  readonly #codes: AuthorizationCodes<ApprovedRequest>;
  readonly #families = new Map<string, Family>();
  readonly #refresh = new Map<string, RefreshRecord>();
  readonly #access = new Map<string, IssuedAccessToken>();

  constructor(private readonly clock: Clock) {
    this.#codes = new AuthorizationCodes({
      clock,
      newCode: () => opaque(32),
      revokeFamily: (family) => this.revokeFamily(family),
    });
  }

  issueCode(request: ApprovedRequest, lifetimeSec: number): string {
    return this.#codes.issue(request, lifetimeSec);
  }

  /**
   * Once only, by the client it was issued to, within its life; a second redemption revokes its tokens.
   * `check` then refuses the request for what the code holds (redirect_uri, PKCE, resource): such a
   * failure leaves the code to its client, so a retry with the right values still works.
   */
  redeemCode<F extends string>(
    code: string,
    clientId: string,
    check: (request: ApprovedRequest) => F | undefined,
  ): CodeRedemption<F> {
    const outcome = this.#codes.redeem(code, clientId, check, (grant) => this.#startFamily(grant).id);
    if (!outcome.ok) return outcome;
    const family = this.#families.get(outcome.family) as Family;
    return { ok: true, family, request: outcome.grant };
  }

  #startFamily(grant: ApprovedRequest): Family {
    const family: Family = {
      id: opaque(12),
      clientId: grant.clientId,
      subject: grant.subject,
      resource: grant.resource,
      scope: grant.scope,
      revoked: false,
    };
    this.#families.set(family.id, family);
    return family;
  }

  /** A new refresh token of the family, replacing its previous one. */
  issueRefreshToken(family: Family, lifetimeSec: number): string {
    for (const record of this.#refresh.values()) if (record.family === family.id) record.rotated = true;
    const token = opaque(32);
    this.#refresh.set(token, {
      family: family.id,
      expiresAt: this.clock.now() + lifetimeSec * 1000,
      rotated: false,
    });
    return token;
  }

  /** The family of a live refresh token of this client; a rotated one revokes the family (replay). */
  useRefreshToken(token: string, clientId: string): RefreshOutcome {
    const record = this.#refresh.get(token);
    const family = record && this.#families.get(record.family);
    if (!record || !family) return { ok: false, reason: "unknown" };
    if (family.clientId !== clientId) return { ok: false, reason: "other_client" };
    if (family.revoked) return { ok: false, reason: "revoked" };
    if (record.rotated) {
      this.revokeFamily(family.id);
      return { ok: false, reason: "reused" };
    }
    if (this.clock.now() >= record.expiresAt) return { ok: false, reason: "expired" };
    return { ok: true, family };
  }

  recordAccessToken(token: Omit<IssuedAccessToken, "revoked">): void {
    this.#access.set(token.jti, { ...token, revoked: false });
  }

  /** The family a refresh token belongs to, whatever its state (for revocation by its client). */
  familyOfRefreshToken(token: string): Family | undefined {
    const record = this.#refresh.get(token);
    return record && this.#families.get(record.family);
  }

  /** The record of an access token this server issued, found by its value. */
  accessTokenByValue(token: string): IssuedAccessToken | undefined {
    const hash = createHash("sha256").update(token).digest("hex");
    for (const record of this.#access.values()) if (record.tokenHash === hash) return { ...record };
    return undefined;
  }

  /** Revokes one access token (RFC 7009 on an access token): its family's refresh token lives on. */
  revokeAccessToken(jti: string): void {
    const token = this.#access.get(jti);
    if (token) token.revoked = true;
  }

  revokeFamily(id: string): void {
    const family = this.#families.get(id);
    if (family) family.revoked = true;
    for (const token of this.#access.values()) if (token.family === id) token.revoked = true;
    for (const [token, record] of this.#refresh) if (record.family === id) this.#refresh.delete(token);
  }

  /** Revokes every family of a person; returns how many of their access tokens were still active. */
  revokeSubject(subject: string): number {
    const live = [...this.#access.values()].filter(
      (t) => t.subject === subject && this.isActive(t.jti),
    ).length;
    for (const family of this.#families.values())
      if (family.subject === subject) this.revokeFamily(family.id);
    return live;
  }

  /** Whether an access token is unrevoked and unexpired by the clock. */
  isActive(jti: string): boolean {
    const token = this.#access.get(jti);
    return token !== undefined && !token.revoked && this.clock.now() < token.expiresAt;
  }

  accessTokens(): IssuedAccessToken[] {
    return [...this.#access.values()].map((t) => ({ ...t }));
  }
}
