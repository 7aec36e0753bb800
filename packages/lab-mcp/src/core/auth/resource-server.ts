// The MCP server as an OAuth 2.1 resource server (MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE): every HTTP
// request carries a bearer access token from the authorization server, verified here against its JWKS
// (signature, issuer, audience, expiry) with jose; a request without a valid one gets 401 and a
// WWW-Authenticate pointing at this server's protected resource metadata (RFC 9728), which names the
// authorization server. The token's subject is the person.
import { createHash } from "node:crypto";
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
// jose is loaded on the first token (import() below): a server out of team mode never needs it.
import type { createRemoteJWKSet, JWTHeaderParameters, JWTPayload } from "jose";
import type { Person } from "../caller.js";
import { discover, stripSlash } from "./discovery.js";
import { accessTokenRefusal } from "./token-kind.js";

export interface ResourceServerSettings {
  /** The authorization server's issuer identifier (MCP_AUTH_ISSUER). */
  issuer: string;
  /** This server's resource identifier: its public MCP URL (MCP_AUTH_AUDIENCE), the tokens' `aud`. */
  audience: string;
  /**
   * This server's own client at the authorization server (MCP_AUTH_CLIENT_ID, MCP_AUTH_CLIENT_SECRET):
   * when set, every token is also asked about there (RFC 7662 introspection), so that one revoked
   * before it expires stops at once.
   */
  introspection?: { clientId: string; clientSecret: string };
}

interface AuthorizationServer {
  jwks: ReturnType<typeof createRemoteJWKSet>;
  introspectionEndpoint?: URL;
}

/** Accepted signature algorithms: asymmetric only (a shared-secret HS256 token is never accepted). */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"];
/** Clock difference tolerated between the authorization server and this one. */
const CLOCK_TOLERANCE_S = 30;
const INTROSPECTION_TIMEOUT_MS = 10_000;

export class ResourceServer {
  readonly resource: URL;
  /** Where this server's protected resource metadata is (RFC 9728, with the resource's path). */
  readonly metadataUrl: string;
  private discovered: AuthorizationServer | undefined;
  private discovering: Promise<AuthorizationServer> | undefined;

  constructor(readonly settings: ResourceServerSettings) {
    this.resource = new URL(settings.audience);
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(this.resource);
  }

  /** The paths at which the metadata is served: RFC 9728's, and the bare one some clients probe. */
  get metadataPaths(): string[] {
    const exact = new URL(this.metadataUrl).pathname;
    return [...new Set([exact, "/.well-known/oauth-protected-resource"])];
  }

  metadata() {
    return {
      resource: this.resource.href,
      authorization_servers: [this.settings.issuer],
      bearer_methods_supported: ["header"],
      resource_name: "lab-mcp",
    };
  }

  /** The verified token of an Authorization header, or the OAuthError to answer with. */
  verify(authorization: string | undefined): Promise<AuthInfo> {
    return verifyBearerToken(authorization, {
      verifier: { verifyAccessToken: (token) => this.verifyAccessToken(token) },
      expectedResource: this.resource,
      resourceMetadataUrl: this.metadataUrl,
    });
  }

  /** The person a verified token names: read from the AuthInfo itself, wherever it travels. */
  personOf(info: AuthInfo): Person {
    return personOf(info, this.settings.issuer);
  }

  /** The HTTP answer (401 with WWW-Authenticate, or 403) for a failed verification. */
  challenge(error: unknown): Response {
    return bearerAuthChallengeResponse(error, { resourceMetadataUrl: this.metadataUrl });
  }

  private async verifyAccessToken(token: string): Promise<AuthInfo> {
    const server = await this.authorizationServer();
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    const { jwtVerify } = await import("jose");
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(token, server.jwks, {
        issuer: this.settings.issuer,
        audience: [this.resource.href, stripSlash(this.resource.href)],
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["sub", "exp"],
      }));
    } catch (error) {
      // Never the token, nor the library's message about it: the code only.
      const code = (error as { code?: string }).code ?? "ERR_JWT_INVALID";
      throw new OAuthError(OAuthErrorCode.InvalidToken, `The access token was refused (${code})`);
    }
    const refusal = accessTokenRefusal(header, payload);
    if (refusal)
      throw new OAuthError(OAuthErrorCode.InvalidToken, `The access token was refused (${refusal})`);
    if (this.settings.introspection) await this.introspect(token, server);
    return {
      token,
      clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp) ?? "",
      scopes: (stringClaim(payload.scope) ?? "").split(" ").filter(Boolean),
      expiresAt: payload.exp,
      resource: this.resource,
      extra: { sub: payload.sub, email: stringClaim(payload.email) },
    };
  }

  /** Whether the authorization server still holds the token active (not revoked); refused if not. */
  private async introspect(token: string, server: AuthorizationServer): Promise<void> {
    const { clientId, clientSecret } = this.settings.introspection as {
      clientId: string;
      clientSecret: string;
    };
    if (!server.introspectionEndpoint) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        "The authorization server offers no token introspection",
      );
    }
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
      "base64",
    );
    const response = await fetch(server.introspectionEndpoint, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, accept: "application/json" },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      redirect: "error",
      signal: AbortSignal.timeout(INTROSPECTION_TIMEOUT_MS),
    }).catch(() => undefined);
    const answer = response?.ok
      ? ((await response.json().catch(() => undefined)) as { active?: unknown })
      : undefined;
    if (answer === undefined) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        "The authorization server did not answer about the token",
      );
    }
    if (answer.active !== true) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token was revoked");
    }
  }

  /** The authorization server's keys and introspection endpoint, from its metadata (RFC 8414, else OpenID). */
  private async authorizationServer(): Promise<AuthorizationServer> {
    if (this.discovered) return this.discovered;
    this.discovering ??= Promise.all([discover(this.settings.issuer), import("jose")]).then(
      ([metadata, { createRemoteJWKSet }]) => {
        this.discovered = {
          jwks: createRemoteJWKSet(metadata.jwksUri),
          introspectionEndpoint: metadata.introspectionEndpoint,
        };
        return this.discovered;
      },
      (error: unknown) => {
        this.discovering = undefined;
        throw new OAuthError(
          OAuthErrorCode.ServerError,
          `The authorization server ${this.settings.issuer} could not be reached (${error instanceof Error ? error.message : "unknown"})`,
        );
      },
    );
    return this.discovering;
  }
}

/** How a person is named: their subject at the issuer, unique across issuers. */
export function personSubject(issuer: string, sub: string): string {
  return `${issuer} ${sub}`;
}

/** The person a verified token names (its `extra` holds the claims verifyAccessToken kept). */
export function personOf(info: AuthInfo, issuer: string): Person {
  const extra = info.extra ?? {};
  return {
    subject: personSubject(issuer, String(extra.sub)),
    email: typeof extra.email === "string" ? extra.email : undefined,
    accessToken: info.token,
  };
}

/** A caller name for a person that says nothing of them (pending asks and logs see only this). */
export function callerOf(person: Person): string {
  return `person:${createHash("sha256").update(person.subject).digest("base64url").slice(0, 22)}`;
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
