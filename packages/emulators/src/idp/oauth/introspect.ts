// POST /introspect (RFC 7662): whether an access token is still active, for a resource server that
// must notice revocation before the token expires. The caller is a confidential client (a resource
// server registers like any client); an inactive, unknown or foreign token is just {active: false}.
import type { IncomingMessage } from "node:http";
import { readParams } from "../../common/request-params.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { authenticateClient } from "./client-auth.js";
import type { AuthorizationServerContext } from "./context.js";
import { NO_STORE, oauthError } from "./errors.js";

export async function answerIntrospection(
  req: IncomingMessage,
  ctx: AuthorizationServerContext,
): Promise<HttpResponse> {
  const parsed = await readParams(req);
  if (!parsed.ok) return oauthError(400, "invalid_request", parsed.message);
  const { params } = parsed;
  const auth = await authenticateClient(req, params, ctx.clients);
  if (!auth.ok) return auth.refusal;
  if (auth.client.clientSecret === undefined) {
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
      ...(person ? { email: person.email } : {}),
    },
    NO_STORE,
  );
}
