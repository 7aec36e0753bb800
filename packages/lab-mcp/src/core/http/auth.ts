// Pluggable authentication for RemoteClient: each service picks a strategy (API key, OAuth, ...).

export interface AuthStrategy {
  /** Adds the credential to an outgoing request's headers. May fetch or refresh a token first. */
  authorize(headers: Headers, signal?: AbortSignal): Promise<void> | void;
  /**
   * Called once after the remote answered 401. Returns true when the credential was renewed and the
   * request is worth sending again (e.g. an expired OAuth token); false to report the 401.
   * `sentAuthorization` is the Authorization header the refused request carried: when it is no longer
   * the current one, another call has renewed already and a strategy should not renew again.
   */
  renewAfterUnauthorized?(signal?: AbortSignal, sentAuthorization?: string | null): Promise<boolean>;
}

export function bearerAuth(token: string): AuthStrategy {
  return {
    authorize(headers) {
      headers.set("authorization", `Bearer ${token}`);
    },
  };
}

export const noAuth: AuthStrategy = { authorize() {} };
