// POST /api/v3/oauth/token: a code for tokens, or a refresh token for a new pair. The client
// credentials travel in the form body, so a redirect is never followed; refusals (RFC 6749 section
// 5.2 bodies) become errors that name the error code and say what it means in a fixed sentence,
// without repeating anything else the remote said.

import type { z } from "zod";
import { ActionableError, InvalidResponseError, RemoteStatusError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { RemoteClient } from "../../../core/http/remote-client.js";
import { failureCodeOf } from "../api/answers.js";
import {
  oauthErrorSchema,
  refreshResponseSchema,
  type TokenResponse,
  tokenResponseSchema,
} from "../records/token-response.js";
import type { OAuthApp } from "../settings.js";

export const TOKEN_PATH = apiPath`api/v3/oauth/token`;
export const AUTHORIZE_PATH = apiPath`api/v3/oauth/authorize`;

/** The repository refused a grant: the code or refresh token is unknown, used, expired or mismatched. */
export class InvalidGrantError extends ActionableError {}

export class TokenEndpoint {
  constructor(
    private readonly client: RemoteClient,
    readonly app: OAuthApp,
  ) {}

  /** `codeVerifier`: the PKCE secret whose S256 challenge went to the authorize endpoint. */
  exchangeCode(code: string, codeVerifier: string, signal?: AbortSignal): Promise<TokenResponse> {
    const params = {
      grant_type: "authorization_code",
      code,
      redirect_uri: this.app.redirectUri,
      code_verifier: codeVerifier,
    };
    return this.post(params, tokenResponseSchema, signal);
  }

  /** A new pair; the repository rotates, but a refresh token left out of the answer stays the same. */
  async refresh(refreshToken: string, signal?: AbortSignal): Promise<TokenResponse> {
    const params = { grant_type: "refresh_token", refresh_token: refreshToken };
    const answer = await this.post(params, refreshResponseSchema, signal);
    return { ...answer, refresh_token: answer.refresh_token ?? refreshToken };
  }

  private async post<T>(
    params: Record<string, string>,
    schema: z.ZodType<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const body = new URLSearchParams({
      ...params,
      client_id: this.app.clientId,
      client_secret: this.app.clientSecret,
    });
    let answer: unknown;
    try {
      const response = await this.client.request<unknown>(
        // The client secret and the code or refresh token are in the body: a redirect is an error,
        // never a reason to send them elsewhere.
        { method: "POST", path: TOKEN_PATH, body, idempotent: false, followRedirects: false },
        { signal },
      );
      answer = response.body;
    } catch (error) {
      throw refusal(error) ?? error;
    }
    // The repository's own error shape may come with HTTP 200 too (fact sheet 2.2, 10).
    const code = failureCodeOf(answer);
    if (code !== undefined) throw refusedWithCode(code);
    const checked = schema.safeParse(answer);
    if (!checked.success) {
      throw new InvalidResponseError(
        `The remote answered with an unexpected shape: ${checked.error.message}`,
      );
    }
    return checked.data;
  }
}

/**
 * What each error code of RFC 6749 sections 4.1.2.1 (authorization) and 5.2 (token) means, in our
 * words. The remote's own error_description is never shown: a remote may echo anything there, a secret
 * of the request included.
 */
const OAUTH_ERRORS: Record<string, string> = {
  access_denied: "the sign-in was declined",
  unsupported_response_type: "the repository does not support this kind of sign-in",
  server_error: "the repository failed while signing in",
  temporarily_unavailable: "the repository cannot sign anyone in just now",
  invalid_request: "the request was refused as malformed",
  invalid_client: "the application's credentials were not accepted",
  invalid_grant:
    "the sign-in code or refresh token is invalid, expired, already used or issued to another application",
  unauthorized_client: "the application may not use this kind of grant",
  unsupported_grant_type: "the repository does not support this kind of grant",
  invalid_scope: "the requested scope was refused",
};

/** The remote's error code when it is one of RFC 6749's, and what it means; never its own text. */
export function describeOAuthError(code: string): string {
  const meaning = Object.hasOwn(OAUTH_ERRORS, code) ? OAUTH_ERRORS[code] : undefined;
  return meaning ? `${code}: ${meaning}` : "an error code this server does not know";
}

/**
 * A refusal in the repository's own shape, {status_code, error_message} (fact sheet 2.2 expects it like
 * other v3 calls; not documented): the code or refresh token was not taken. Its text is never shown.
 */
function refusedWithCode(code: number): InvalidGrantError {
  return new InvalidGrantError(`The repository refused the grant (its status_code ${code}).`);
}

function refusal(error: unknown): Error | undefined {
  if (!(error instanceof RemoteStatusError) || (error.status !== 400 && error.status !== 401))
    return undefined;
  const parsed = oauthErrorSchema.safeParse(error.body);
  if (!parsed.success) {
    const code = failureCodeOf(error.body);
    return code === undefined ? undefined : refusedWithCode(code);
  }
  const code = parsed.data.error;
  const said = describeOAuthError(code);
  if (code === "invalid_client") {
    return new ActionableError(
      `The repository refused the OAuth application (${said}). Check PROTOCOLS_CLIENT_ID and PROTOCOLS_CLIENT_SECRET.`,
    );
  }
  if (code === "invalid_grant") return new InvalidGrantError(`The repository refused the grant (${said}).`);
  return new ActionableError(`The repository refused the token request (${said}).`);
}
