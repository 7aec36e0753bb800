// An authorization request once /authorize has checked it: what the sign-in form's ticket holds until a
// person approves or denies. Its own file so the server's context can name it without importing the
// checks, which themselves read the context.

export interface AuthorizationRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  scope: string;
  nonce: string | undefined;
}
