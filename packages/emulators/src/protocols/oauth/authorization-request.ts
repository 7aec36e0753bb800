// An authorization request once /api/v3/oauth/authorize has checked it: what the sign-in and consent
// forms' tickets (common/oauth/form-tickets.ts) hold until the person signs in and decides.

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  /** The PKCE S256 challenge, when the client sent one (RFC 7636). */
  codeChallenge?: string;
}
