// POST /introspect (RFC 7662): whether an access token is still active, for a resource server that
// must notice revocation before the token expires. The caller is a confidential client (a resource
// server registers like any client); an inactive, unknown or foreign token is just {active: false}.
import type { IncomingMessage } from "node:http";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { readClientRequest } from "./client-auth.js";
import type { AuthorizationServerContext } from "./context.js";
import { NO_STORE, oauthError } from "./errors.js";

export async function answerIntrospection(
  req: IncomingMessage,
  ctx: AuthorizationServerContext,
): Promise<HttpResponse> {
  const request = await readClientRequest(req, ctx.clients);
  if (!request.ok) return request.refusal;
  const { params, client } = request;
  if (client.clientSecret === undefined) {
    return oauthError(401, "invalid_client", "Introspection needs a confidential client.");
  }
  if (!params.token) return oauthError(400, "invalid_request", "token is required.");
  const token = ctx.grants.accessTokenByValue(params.token);
  if (!token || !ctx.grants.isActive(token.jti)) return jsonResponse(200, { active: false }, NO_STORE);
  const person = ctx.people.find(token.subject);
  return jsonResponse(
    200,
    {
      active: true,
      iss: ctx.issuer(),
      sub: token.subject,
      aud: token.audience,
      client_id: token.clientId,
      scope: token.scope,
      token_type: "Bearer",
      exp: Math.floor(token.expiresAt / 1000),
      iat: Math.floor(token.issuedAt / 1000),
      jti: token.jti,
      ...(person && ctx.settings.emailClaims.accessToken ? { email: person.email } : {}),
    },
    NO_STORE,
  );
}
