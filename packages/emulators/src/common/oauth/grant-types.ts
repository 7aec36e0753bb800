// The token endpoint's grant_type switch, the same at both servers: authorization_code and refresh_token,
// anything else refused with the RFC 6749 section 5.2 error for it.
import type { HttpResponse } from "../response.js";
import type { OAuthErrorResponse } from "./errors.js";

export interface GrantHandlers {
  authorization_code: () => HttpResponse | Promise<HttpResponse>;
  refresh_token: () => HttpResponse | Promise<HttpResponse>;
}

export function answerGrant(
  grantType: string | undefined,
  handlers: GrantHandlers,
  oauthError: OAuthErrorResponse,
): HttpResponse | Promise<HttpResponse> {
  switch (grantType) {
    case "authorization_code":
      return handlers.authorization_code();
    case "refresh_token":
      return handlers.refresh_token();
    case undefined:
    case "":
      return oauthError(400, "invalid_request", "grant_type is required.");
    default:
      return oauthError(
        400,
        "unsupported_grant_type",
        "grant_type must be authorization_code or refresh_token.",
      );
  }
}
