// OAuth 2.0 client credentials: one token for all concurrent calls of every replica, fetched on first
// use, renewed shortly before it expires, and once more when the platform says 401 (revoked or skew).
import { z } from "zod";
import { renewShared } from "../../../core/credentials/shared-renewal.js";
import { ActionableError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { RemoteClient } from "../../../core/http/remote-client.js";
import type { SecretStore } from "../../../core/state/shared-state.js";
import { tokenResponseSchema } from "../records/platform.js";
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
  expiresAt: number;
}

const tokenSchema = z.object({ value: z.string().min(1), renewAt: z.number(), expiresAt: z.number() });

/** The id of an app's credential (a digest: it names the app's budget and token, never contains them). */
export function clientCredentialsId(clientId: string, clientSecret: string): string {
  return credentialId("client_credentials", `${clientId}:${clientSecret}`);
}

/** Renew this long before expiry, or at 90 % of a short lifetime. */
const RENEW_MARGIN_MS = 60_000;
/** How long one replica may hold the renewal for the fleet before another takes over (it died). */
const RENEWAL_LOCK_MS = 45_000;
/** How often a replica waiting for another's renewal looks for the new token. */
const WAIT_POLL_MS = 100;

/**
 * OAuth 2.0 client credentials of one app, its token shared through `secrets` (the fleet's when in
 * Redis): fetched once for the fleet, renewed by one replica holding a lock while the others wait for
 * the new token; a lock whose holder died expires and another replica renews. Each process keeps the
 * token in memory too, and reads the shared one only when its own is due.
 */
export function clientCredentials(options: {
  clientId: string;
  clientSecret: string;
  /** A client of the platform without credentials, for the token endpoint. */
  tokenClient: RemoteClient;
  /** Where the token is shared (encrypted at rest in Redis). */
  secrets: SecretStore;
  now?: () => number;
}): LabdataCredential {
  const now = options.now ?? Date.now;
  const id = clientCredentialsId(options.clientId, options.clientSecret);
  const name = `labdata:token:${options.tokenClient.baseUrl.href}:${id}`;
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
    const fetchedAt = now();
    return {
      value: body.access_token,
      renewAt: fetchedAt + Math.max(lifetimeMs - RENEW_MARGIN_MS, lifetimeMs * 0.9),
      expiresAt: fetchedAt + lifetimeMs,
    };
  };

  /** The shared token when it is still good (not due) and not `refused`. */
  const sharedToken = async (refused?: string): Promise<Token | undefined> => {
    const stored = await options.secrets.read(name);
    const parsed = stored ? tokenSchema.safeParse(safeJson(stored.value)) : undefined;
    if (!parsed?.success) return undefined;
    const shared = parsed.data;
    return now() < shared.renewAt && shared.value !== refused ? shared : undefined;
  };

  /** A good token: the fleet's, or one this process fetches holding the fleet's renewal lock. */
  const obtain = (refused: string | undefined, signal?: AbortSignal): Promise<Token> =>
    renewShared({
      fresh: () => sharedToken(refused),
      tryLock: () => options.secrets.tryLock(`${name}:renewal`, RENEWAL_LOCK_MS),
      renewHoldingLock: async () => {
        // Another replica may have renewed between our read and our lock.
        const renewed = await sharedToken(refused);
        if (renewed) return renewed;
        const fresh = await fetchToken(signal);
        await options.secrets.write(name, JSON.stringify(fresh), {
          ttlMs: Math.max(1, fresh.expiresAt - now()),
        });
        return fresh;
      },
      // The replica renewing died without its lock running out yet: fetch one for this process.
      gaveUp: () => fetchToken(signal),
      giveUpAt: now() + RENEWAL_LOCK_MS + 5_000,
      pollMs: WAIT_POLL_MS,
      now,
      signal,
    });

  // Concurrent callers of this process share one renewal.
  const renew = (refused: string | undefined, signal?: AbortSignal): Promise<Token> => {
    pending ??= obtain(refused, signal).then(
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
    id,
    async authorize(headers, signal) {
      const current = token && now() < token.renewAt ? token : await renew(undefined, signal);
      headers.set("authorization", `Bearer ${current.value}`);
    },
    async renewAfterUnauthorized(signal, sentAuthorization) {
      const refused = sentAuthorization?.replace(/^Bearer /, "") ?? token?.value;
      // The token was refused (revoked, or the platform's clock disagrees): no replica may use it again.
      const stored = await options.secrets.read(name);
      const storedToken = stored ? tokenSchema.safeParse(safeJson(stored.value)) : undefined;
      if (stored && storedToken?.success && storedToken.data.value === refused) {
        await options.secrets.remove(name, stored.version);
      }
      token = undefined;
      await renew(refused, signal);
      return true;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
