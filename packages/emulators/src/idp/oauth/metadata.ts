// The authorization server's metadata (RFC 8414), also served as the OpenID provider's discovery
// document: the same issuer and endpoints under both well-known paths, as MCP clients try one then the
// other. It says what an MCP client needs: PKCE S256, client ID metadata documents, dynamic
// registration, and the iss parameter on the authorization response (RFC 9207).
import { ALG } from "../keys.js";
import { CLIENT_AUTH_METHODS } from "./clients.js";
import { TOKEN_EXCHANGE_GRANT } from "./token-exchange.js";

export const OAUTH_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const DISCOVERY_PATH = "/.well-known/openid-configuration";
export const JWKS_PATH = "/jwks";
export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/token";
export const REGISTER_PATH = "/register";
export const REVOKE_PATH = "/revoke";
export const INTROSPECT_PATH = "/introspect";

export function authorizationServerMetadata(issuer: string, scopes: readonly string[]) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    registration_endpoint: `${issuer}${REGISTER_PATH}`,
    revocation_endpoint: `${issuer}${REVOKE_PATH}`,
    introspection_endpoint: `${issuer}${INTROSPECT_PATH}`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    scopes_supported: scopes,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", TOKEN_EXCHANGE_GRANT],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [ALG],
    claims_supported: ["iss", "sub", "aud", "exp", "iat", "nbf", "email", "email_verified", "name", "nonce"],
  };
}
