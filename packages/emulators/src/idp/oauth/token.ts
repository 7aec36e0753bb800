// POST /token: the authorization_code grant (the code's client, redirect_uri, PKCE S256 verifier and
// resource; once; within its life) and the refresh_token grant (rotation: each refresh token works once,
// and a replayed one revokes its family). Both answer a JWT access token for the resource, a new
// refresh token, and an ID token when the scope holds openid. The token-exchange grant (RFC 8693) is
// token-exchange.ts.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { CODE_FAILURES as SHARED_CODE_FAILURES } from "../../common/oauth/authorization-codes.js";
import { answerGrant } from "../../common/oauth/grant-types.js";
import { verifierMatches } from "../../common/oauth/pkce.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { mintAccessToken } from "../access-tokens.js";
import { mintIdToken } from "../id-tokens.js";
import { readClientRequest } from "./client-auth.js";
import type { OAuthClient } from "./clients.js";
import type { AuthorizationServerContext } from "./context.js";
import { NO_STORE, oauthError } from "./errors.js";
import type { Family } from "./grants.js";
import { exchangeToken, TOKEN_EXCHANGE_GRANT } from "./token-exchange.js";

const CODE_FAILURES = {
  ...SHARED_CODE_FAILURES,
  resource_mismatch: "resource is not the one of the authorization request.",
} as const;

const REFRESH_FAILURES = {
  unknown: "The refresh token is not valid.",
  other_client: "The refresh token was issued to another client.",
  revoked: "The refresh token has been revoked.",
  reused: "The refresh token was already used; every token of its sign-in is revoked.",
  expired: "The refresh token has expired.",
} as const;

// RFC 7636 section 4.1: 43 to 128 unreserved characters.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

async function tokensFor(
  ctx: AuthorizationServerContext,
  family: Family,
  scope: string,
  nonce: string | undefined,
): Promise<HttpResponse> {
  const person = ctx.people.find(family.subject);
  if (!person) return oauthError(400, "invalid_grant", "The person of this grant no longer exists.");
  const { accessTokenLifetimeSec: lifetimeSec } = ctx.settings;
  const issuer = ctx.issuer();
  const access = await mintAccessToken(ctx.keys, ctx.clock, issuer, {
    person,
    clientId: family.clientId,
    resource: family.resource,
    scope,
    lifetimeSec,
    withEmail: ctx.settings.emailClaims.accessToken,
  });
  ctx.grants.recordAccessToken({
    jti: access.jti,
    tokenHash: createHash("sha256").update(access.token).digest("hex"),
    subject: person.subject,
    clientId: family.clientId,
    audience: family.resource,
    scope,
    issuedAt: access.issuedAt,
    expiresAt: access.expiresAt,
    family: family.id,
  });
  const refreshToken = ctx.grants.issueRefreshToken(family, ctx.settings.refreshTokenLifetimeSec);
  const idToken = scope.split(" ").includes("openid")
    ? await mintIdToken(ctx.keys, ctx.clock, issuer, {
        email: person.email,
        name: person.name,
        subject: person.subject,
        omitEmail: !ctx.settings.emailClaims.idToken,
        audience: family.clientId,
        expiresInSec: lifetimeSec,
        ...(nonce === undefined ? {} : { nonce }),
      })
    : undefined;
  return jsonResponse(
    200,
    {
      access_token: access.token,
      token_type: "Bearer",
      expires_in: lifetimeSec,
      refresh_token: refreshToken,
      scope,
      ...(idToken === undefined ? {} : { id_token: idToken }),
    },
    NO_STORE,
  );
}

async function exchangeCode(
  ctx: AuthorizationServerContext,
  client: OAuthClient,
  params: Record<string, string>,
): Promise<HttpResponse> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier, resource } = params;
  if (!code) return oauthError(400, "invalid_request", "code is required.");
  if (!redirectUri) return oauthError(400, "invalid_request", "redirect_uri is required.");
  if (!verifier) return oauthError(400, "invalid_request", "code_verifier is required (PKCE).");
  if (!VERIFIER.test(verifier))
    return oauthError(400, "invalid_request", "code_verifier must be 43 to 128 unreserved characters.");
  const outcome = ctx.grants.redeemCode(code, client.clientId, (request) => {
    if (request.redirectUri !== redirectUri) return "redirect_mismatch";
    if (!verifierMatches(verifier, request.codeChallenge)) return "verifier_mismatch";
    if (resource !== undefined && resource !== request.resource) return "resource_mismatch";
    return undefined;
  });
  if (!outcome.ok) {
    const error = outcome.reason === "resource_mismatch" ? "invalid_target" : "invalid_grant";
    return oauthError(400, error, CODE_FAILURES[outcome.reason]);
  }
  return tokensFor(ctx, outcome.family, outcome.request.scope, outcome.request.nonce);
}

async function refresh(
  ctx: AuthorizationServerContext,
  client: OAuthClient,
  params: Record<string, string>,
): Promise<HttpResponse> {
  if (!params.refresh_token) return oauthError(400, "invalid_request", "refresh_token is required.");
  const outcome = ctx.grants.useRefreshToken(params.refresh_token, client.clientId);
  if (!outcome.ok) return oauthError(400, "invalid_grant", REFRESH_FAILURES[outcome.reason]);
  const { family } = outcome;
  if (params.resource !== undefined && params.resource !== family.resource) {
    return oauthError(400, "invalid_target", "resource is not the one this refresh token was issued for.");
  }
  // A refresh may narrow the scope, never widen it (RFC 6749 section 6).
  const granted = family.scope.split(" ");
  const asked = params.scope === undefined ? granted : params.scope.split(" ").filter(Boolean);
  if (asked.some((s) => !granted.includes(s))) {
    return oauthError(400, "invalid_scope", "A refresh cannot add scopes the person did not grant.");
  }
  return tokensFor(ctx, family, asked.join(" "), undefined);
}

/** POST /token. */
export async function answerTokenRequest(
  req: IncomingMessage,
  ctx: AuthorizationServerContext,
): Promise<HttpResponse> {
  const request = await readClientRequest(req, ctx.clients);
  if (!request.ok) return request.refusal;
  const { params, client } = request;
  if (params.grant_type === TOKEN_EXCHANGE_GRANT) return exchangeToken(ctx, client, params);
  return answerGrant(
    params.grant_type,
    {
      authorization_code: () => exchangeCode(ctx, client, params),
      refresh_token: () => refresh(ctx, client, params),
    },
    oauthError,
  );
}
