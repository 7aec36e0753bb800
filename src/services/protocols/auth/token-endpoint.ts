// POST /api/v3/oauth/token: a code for tokens, or a refresh token for a new pair. The client
// credentials travel in the form body; refusals (RFC 6749 section 5.2 bodies) become errors that say
// what went wrong without repeating any secret.

import type { z } from "zod";
import { ActionableError, RemoteStatusError } from "../../../core/errors.js";
import type { RemoteClient } from "../../../core/http/remote-client.js";
import type { OAuthApp } from "../settings.js";
import {
  oauthErrorSchema,
  refreshResponseSchema,
  type TokenResponse,
  tokenResponseSchema,
} from "../types.js";

export const TOKEN_PATH = "api/v3/oauth/token";
export const AUTHORIZE_PATH = "api/v3/oauth/authorize";

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
    try {
      const response = await this.client.request(
        { method: "POST", path: TOKEN_PATH, body, idempotent: false, schema },
        { signal },
      );
      return response.body;
    } catch (error) {
      throw refusal(error) ?? error;
    }
  }
}

function refusal(error: unknown): Error | undefined {
  if (!(error instanceof RemoteStatusError) || (error.status !== 400 && error.status !== 401))
    return undefined;
  const parsed = oauthErrorSchema.safeParse(error.body);
  if (!parsed.success) return undefined;
  const { error: code, error_description: description } = parsed.data;
  const said = `${code}${description ? `: ${description.slice(0, 300)}` : ""}`;
  if (code === "invalid_client") {
    return new ActionableError(
      `The repository refused the OAuth application (${said}). Check PROTOCOLS_CLIENT_ID and PROTOCOLS_CLIENT_SECRET.`,
    );
  }
  if (code === "invalid_grant") return new InvalidGrantError(`The repository refused the grant (${said}).`);
  return new ActionableError(`The repository refused the token request (${said}).`);
}
