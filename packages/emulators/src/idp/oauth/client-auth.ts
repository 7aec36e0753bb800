// Who is calling the token, revocation and introspection endpoints (RFC 6749 section 2.3): a public
// client names itself with client_id; a confidential one proves its secret in HTTP Basic or in the body
// (either is taken; both at once is refused, as is a secret a public client should not have).
import type { IncomingMessage } from "node:http";
import { secretsEqual } from "../../common/http.js";
import { readClientCredentials } from "../../common/oauth/client-credentials.js";
import { readParams } from "../../common/request-params.js";
import type { HttpResponse } from "../../common/response.js";
import type { Clients, OAuthClient } from "./clients.js";
import { oauthError } from "./errors.js";

type ClientAuthentication = { ok: true; client: OAuthClient } | { ok: false; refusal: HttpResponse };

/** A client's POST to the token, revocation or introspection endpoint: its form and who sent it. */
export type ClientRequest =
  | { ok: true; params: Record<string, string>; client: OAuthClient }
  | { ok: false; refusal: HttpResponse };

/** Reads the form of a client's POST and authenticates the client; the OAuth error when either fails. */
export async function readClientRequest(req: IncomingMessage, clients: Clients): Promise<ClientRequest> {
  const parsed = await readParams(req);
  if (!parsed.ok) return { ok: false, refusal: oauthError(400, "invalid_request", parsed.message) };
  const auth = await authenticateClient(req, parsed.params, clients);
  return auth.ok ? { ok: true, params: parsed.params, client: auth.client } : auth;
}

const refuse = (status: 400 | 401, error: string, description: string): ClientAuthentication => ({
  ok: false,
  refusal: oauthError(status, error, description),
});

async function authenticateClient(
  req: IncomingMessage,
  params: Record<string, string>,
  clients: Clients,
): Promise<ClientAuthentication> {
  const presented = readClientCredentials(req, params);
  if (!presented.ok) return refuse(presented.status, presented.error, presented.description);
  const { clientId, secret } = presented;
  if (!clientId) return refuse(401, "invalid_client", "client_id is required.");
  const found = await clients.find(clientId);
  if (!found.ok) return refuse(401, "invalid_client", found.problem);
  const { client } = found;
  if (client.clientSecret === undefined) {
    return secret === undefined
      ? { ok: true, client }
      : refuse(401, "invalid_client", "This client is public: it has no secret to send.");
  }
  if (!secretsEqual(secret, client.clientSecret)) {
    return refuse(401, "invalid_client", "Unknown client or wrong client secret.");
  }
  return { ok: true, client };
}
