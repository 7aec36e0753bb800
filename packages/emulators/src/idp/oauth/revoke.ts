// POST /revoke (RFC 7009): a client revokes one of its own tokens. A refresh token takes its whole
// sign-in with it (every access token of the family); an access token dies alone. An unknown token is
// answered 200 all the same (section 2.2), a token of another client is refused.
import type { IncomingMessage } from "node:http";
import { emptyResponse, type HttpResponse } from "../../common/response.js";
import { readClientRequest } from "./client-auth.js";
import type { AuthorizationServerContext } from "./context.js";
import { NO_STORE, oauthError } from "./errors.js";

const OTHER_CLIENT = "The token was issued to another client.";

export async function answerRevocation(
  req: IncomingMessage,
  ctx: AuthorizationServerContext,
): Promise<HttpResponse> {
  const request = await readClientRequest(req, ctx.clients);
  if (!request.ok) return request.refusal;
  const { params, client } = request;
  if (!params.token) return oauthError(400, "invalid_request", "token is required.");
  const clientId = client.clientId;

  const family = ctx.grants.familyOfRefreshToken(params.token);
  if (family) {
    if (family.clientId !== clientId) return oauthError(400, "unauthorized_client", OTHER_CLIENT);
    ctx.grants.revokeFamily(family.id);
  }
  const access = family ? undefined : ctx.grants.accessTokenByValue(params.token);
  if (access) {
    if (access.clientId !== clientId) return oauthError(400, "unauthorized_client", OTHER_CLIENT);
    ctx.grants.revokeAccessToken(access.jti);
  }
  return emptyResponse(200, NO_STORE);
}
