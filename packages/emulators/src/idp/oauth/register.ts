// POST /register: dynamic client registration (RFC 7591). Redirect URIs must be https or loopback http;
// a client asking for token_endpoint_auth_method none is public, any other (client_secret_basic by
// default, as RFC 7591 says) gets a secret, and only such a client may register token exchange (RFC 8693).
// Errors are invalid_redirect_uri or invalid_client_metadata.
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { readJsonBody } from "../../common/json-body.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { CLIENT_AUTH_METHODS, type ClientAuthMethod } from "./clients.js";
import type { AuthorizationServerContext } from "./context.js";
import { NO_STORE } from "./errors.js";
import { redirectUriProblem } from "./redirect-uris.js";
import { TOKEN_EXCHANGE_GRANT } from "./token-exchange.js";

const registrationSchema = z.looseObject({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(20),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  client_name: z.string().max(200).optional(),
  scope: z.string().max(1000).optional(),
});

const GRANT_TYPES = ["authorization_code", "refresh_token", TOKEN_EXCHANGE_GRANT];

function registrationError(error: string, description: string): HttpResponse {
  return jsonResponse(400, { error, error_description: description }, NO_STORE);
}

export async function answerRegistration(
  req: IncomingMessage,
  ctx: AuthorizationServerContext,
): Promise<HttpResponse> {
  const body = await readJsonBody(req, registrationSchema, 16 * 1024);
  if (!body.ok) {
    const error = body.message.startsWith("redirect_uris")
      ? "invalid_redirect_uri"
      : "invalid_client_metadata";
    return registrationError(error, body.message);
  }
  const metadata = body.value;
  const badUri = metadata.redirect_uris.map(redirectUriProblem).find((p) => p !== undefined);
  if (badUri) return registrationError("invalid_redirect_uri", badUri);
  const authMethod = metadata.token_endpoint_auth_method ?? "client_secret_basic";
  if (!CLIENT_AUTH_METHODS.includes(authMethod as ClientAuthMethod)) {
    return registrationError(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(", ")}.`,
    );
  }
  const grantTypes = metadata.grant_types ?? ["authorization_code"];
  if (grantTypes.some((g) => !GRANT_TYPES.includes(g))) {
    return registrationError(
      "invalid_client_metadata",
      `grant_types may hold authorization_code, refresh_token and ${TOKEN_EXCHANGE_GRANT} only.`,
    );
  }
  if (grantTypes.includes(TOKEN_EXCHANGE_GRANT) && authMethod === "none") {
    return registrationError("invalid_client_metadata", "Token exchange needs a confidential client.");
  }
  const responseTypes = metadata.response_types ?? ["code"];
  if (responseTypes.some((r) => r !== "code")) {
    return registrationError("invalid_client_metadata", "response_types may hold code only.");
  }
  const client = ctx.clients.register({
    authMethod: authMethod as ClientAuthMethod,
    redirectUris: metadata.redirect_uris,
    name: metadata.client_name,
    grantTypes,
  });
  return jsonResponse(
    201,
    {
      client_id: client.clientId,
      ...(client.clientSecret === undefined
        ? {}
        : { client_secret: client.clientSecret, client_secret_expires_at: 0 }),
      client_id_issued_at: Math.floor(ctx.clock.now() / 1000),
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: client.authMethod,
      grant_types: grantTypes,
      response_types: responseTypes,
      ...(metadata.client_name === undefined ? {} : { client_name: metadata.client_name }),
      ...(metadata.scope === undefined ? {} : { scope: metadata.scope }),
    },
    NO_STORE,
  );
}
