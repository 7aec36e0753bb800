// OAuth 2.0 client credentials: one token for all concurrent calls, fetched on first use, renewed
// shortly before it expires, and once more when the platform says 401 (revoked or clock skew).
import { ActionableError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { RemoteClient } from "../../../core/http/remote-client.js";
import { tokenResponseSchema } from "../types.js";
import { credentialId, type LabdataCredential } from "./credential.js";

/** expires_in is optional in the platform's document (its example says 900); some servers send a string. */
const DEFAULT_LIFETIME_SEC = 900;

function lifetimeSeconds(expiresIn: number | string | null | undefined): number {
  const seconds = Number(expiresIn);
  return expiresIn !== null && expiresIn !== "" && Number.isFinite(seconds) && seconds > 0
    ? seconds
    : DEFAULT_LIFETIME_SEC;
}

interface Token {
  value: string;
  renewAt: number;
}

/** Renew this long before expiry, or at 90 % of a short lifetime. */
const RENEW_MARGIN_MS = 60_000;

export function clientCredentials(options: {
  clientId: string;
  clientSecret: string;
  /** A client of the platform without credentials, for the token endpoint. */
  tokenClient: RemoteClient;
  now?: () => number;
}): LabdataCredential {
  const now = options.now ?? Date.now;
  let token: Token | undefined;
  let pending: Promise<Token> | undefined;

  const fetchToken = async (signal?: AbortSignal): Promise<Token> => {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    const { body } = await options.tokenClient.request(
      {
        method: "POST",
        path: apiPath`api/v2/token`,
        body: form,
        idempotent: true,
        schema: tokenResponseSchema,
        // The client secret is in the body: a redirect is an error, never a reason to send it elsewhere.
        followRedirects: false,
      },
      { signal },
    );
    if (!body.access_token) {
      throw new ActionableError(
        "The lab data platform's token endpoint answered without an access token. Check the app's " +
          "LABDATA_CLIENT_ID and LABDATA_CLIENT_SECRET, or sign in with LABDATA_API_KEY.",
      );
    }
    const lifetimeMs = lifetimeSeconds(body.expires_in) * 1000;
    return {
      value: body.access_token,
      renewAt: now() + Math.max(lifetimeMs - RENEW_MARGIN_MS, lifetimeMs * 0.9),
    };
  };

  // Concurrent callers share one token request.
  const renew = (signal?: AbortSignal): Promise<Token> => {
    pending ??= fetchToken(signal).then(
      (fresh) => {
        token = fresh;
        pending = undefined;
        return fresh;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };

  return {
    method: "client_credentials",
    description: "OAuth 2.0 client credentials (app)",
    id: credentialId("client_credentials", `${options.clientId}:${options.clientSecret}`),
    async authorize(headers, signal) {
      const current = token && now() < token.renewAt ? token : await renew(signal);
      headers.set("authorization", `Bearer ${current.value}`);
    },
    async renewAfterUnauthorized(signal) {
      token = undefined;
      await renew(signal);
      return true;
    },
  };
}
