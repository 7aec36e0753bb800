// The token-exchange grant (RFC 8693) at POST /token: a confidential client allowed to exchange (it
// registered grant type token-exchange) trades a person's access token issued here for a token for
// another audience, the way Keycloak, Okta, Auth0 and Entra ID (on-behalf-of) let a service act for the
// signed-in person at a downstream API without passing on the token it received.
import { createHash } from "node:crypto";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { mintAccessToken } from "../access-tokens.js";
import { mintIdToken } from "../id-tokens.js";
import type { OAuthClient } from "./clients.js";
import type { AuthorizationServerContext } from "./context.js";
import { NO_STORE, oauthError } from "./errors.js";

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

/** Whether `client` may use the token-exchange grant: a confidential client that registered it. */
export function mayExchange(client: OAuthClient): boolean {
  return client.clientSecret !== undefined && (client.grantTypes ?? []).includes(TOKEN_EXCHANGE_GRANT);
}

export async function exchangeToken(
  ctx: AuthorizationServerContext,
  client: OAuthClient,
  params: Record<string, string>,
): Promise<HttpResponse> {
  if (!mayExchange(client)) {
    return oauthError(
      400,
      "unauthorized_client",
      "This client is not allowed to exchange tokens: register it as a confidential client with grant type " +
        `${TOKEN_EXCHANGE_GRANT}.`,
    );
  }
  const { subject_token: subjectToken, subject_token_type: subjectType, audience } = params;
  if (!subjectToken) return oauthError(400, "invalid_request", "subject_token is required.");
  if (subjectType !== ACCESS_TOKEN_TYPE) {
    return oauthError(400, "invalid_request", `subject_token_type must be ${ACCESS_TOKEN_TYPE}.`);
  }
  if (!audience) return oauthError(400, "invalid_request", "audience is required.");
  const requested = params.requested_token_type ?? ACCESS_TOKEN_TYPE;
  if (requested !== ACCESS_TOKEN_TYPE && requested !== ID_TOKEN_TYPE) {
    return oauthError(
      400,
      "invalid_request",
      `requested_token_type must be ${ACCESS_TOKEN_TYPE} or ${ID_TOKEN_TYPE}.`,
    );
  }
  const subject = ctx.grants.accessTokenByValue(subjectToken);
  if (!subject) {
    return oauthError(400, "invalid_grant", "The subject token was not issued by this identity provider.");
  }
  if (!ctx.grants.isActive(subject.jti)) {
    return oauthError(400, "invalid_grant", "The subject token has expired or was revoked.");
  }
  const person = ctx.people.find(subject.subject);
  if (!person) return oauthError(400, "invalid_grant", "The person of the subject token no longer exists.");
  // The exchanged token lives no longer than the one it was exchanged for.
  const lifetimeSec = Math.max(1, Math.floor((subject.expiresAt - ctx.clock.now()) / 1000));
  const issuer = ctx.issuer();
  if (requested === ID_TOKEN_TYPE) {
    const idToken = await mintIdToken(ctx.keys, ctx.clock, issuer, {
      email: person.email,
      name: person.name,
      subject: person.subject,
      audience,
      expiresInSec: lifetimeSec,
    });
    return answer(idToken, ID_TOKEN_TYPE, "N_A", lifetimeSec);
  }
  const access = await mintAccessToken(ctx.keys, ctx.clock, issuer, {
    person,
    clientId: client.clientId,
    resource: audience,
    scope: subject.scope,
    lifetimeSec,
    withEmail: ctx.settings.emailClaims.accessToken,
  });
  ctx.grants.recordAccessToken({
    jti: access.jti,
    tokenHash: createHash("sha256").update(access.token).digest("hex"),
    subject: person.subject,
    clientId: client.clientId,
    audience,
    scope: subject.scope,
    issuedAt: access.issuedAt,
    expiresAt: access.expiresAt,
    family: subject.family,
  });
  return answer(access.token, ACCESS_TOKEN_TYPE, "Bearer", lifetimeSec);
}

function answer(token: string, issuedType: string, tokenType: string, expiresIn: number): HttpResponse {
  return jsonResponse(
    200,
    { access_token: token, issued_token_type: issuedType, token_type: tokenType, expires_in: expiresIn },
    NO_STORE,
  );
}
