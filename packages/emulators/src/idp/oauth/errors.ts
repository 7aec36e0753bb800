// OAuth error bodies {error, error_description} (RFC 6749 section 5.2), never cached: 401 with a
// WWW-Authenticate challenge when client authentication failed, else 400.
import { type HttpResponse, jsonResponse } from "../../common/response.js";

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function oauthError(status: 400 | 401, error: string, description: string): HttpResponse {
  const headers =
    status === 401 ? { ...NO_STORE, "www-authenticate": 'Basic realm="identity provider"' } : NO_STORE;
  return jsonResponse(status, { error, error_description: description }, headers);
}
