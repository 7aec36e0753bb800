// OAuth error bodies {error, error_description} (RFC 6749 section 5.2) as both authorization servers
// answer them: never cached (section 5.1), and 401 with a Basic challenge naming the server's realm when
// client authentication failed, else 400.
import { type HttpResponse, jsonResponse } from "../response.js";

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export type OAuthErrorResponse = (status: 400 | 401, error: string, description: string) => HttpResponse;

/** The error responder of the server whose Basic realm is `realm`. */
export function oauthErrors(realm: string): OAuthErrorResponse {
  return (status, error, description) => {
    const headers = status === 401 ? { ...NO_STORE, "www-authenticate": `Basic realm="${realm}"` } : NO_STORE;
    return jsonResponse(status, { error, error_description: description }, headers);
  };
}

/** 405 for an endpoint a client must POST to, in the endpoints' JSON error format. */
export function postOnly(description: string): HttpResponse {
  return jsonResponse(405, { error: "invalid_request", error_description: description }, { allow: "POST" });
}
