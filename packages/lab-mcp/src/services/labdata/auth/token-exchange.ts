// OAuth 2.0 Token Exchange (RFC 8693) for a team server: the person's access token to this MCP server
// never leaves it (the MCP authorization spec forbids passing it on, and a platform accepting it would
// let whoever holds it write around MCP_READ_ONLY, toolsets and the destructive gate). This server, a
// confidential client of the identity provider, exchanges it there for an ID token issued for the
// platform (audience LABDATA_TOKEN_EXCHANGE_AUDIENCE). The exchanged token is kept per person, sealed in
// the shared state under a keyed name, until shortly before it expires; one the platform refuses is
// dropped for every replica and exchanged again once.
import { z } from "zod";
import { discover } from "../../../core/auth/discovery.js";
import type { Person } from "../../../core/caller.js";
import { ActionableError } from "../../../core/errors.js";
import type { SecretStore } from "../../../core/state/shared-state.js";
import { credentialId, type LabdataCredential } from "./credential.js";
import { readSecretFile } from "./secret-file.js";

const GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

/** When the answer says no lifetime and the token no expiry: short, so a revocation is soon noticed. */
const DEFAULT_LIFETIME_SEC = 300;
/** Exchange again this long before expiry, or at 90 % of a short lifetime. */
const RENEW_MARGIN_MS = 60_000;
/**
 * The error codes of a token endpoint (RFC 6749 section 5.2, RFC 8693 section 2.2.2) named to the
 * agent. The provider's own error_description never is: a provider may echo anything there, the
 * client secret of the request included; nor is a code it made up.
 */
const KNOWN_CODES = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
]);

const answerSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string()]).optional(),
});
const refusalSchema = z.object({ error: z.string() });
const storedSchema = z.object({ value: z.string().min(1), renewAt: z.number(), expiresAt: z.number() });
type Exchanged = z.infer<typeof storedSchema>;

export interface TokenExchangeOptions {
  /** MCP_AUTH_ISSUER: the provider that issued the people's tokens, and exchanges them. */
  issuer: string;
  /** LABDATA_TOKEN_EXCHANGE_AUDIENCE: the platform's client at the provider. */
  audience: string;
  clientId: string;
  /** The client secret, or the file holding it (read again on every exchange, so it can rotate). */
  clientSecret: { value: string } | { file: string };
  /** The platform's base URL: exchanged tokens are named per platform. */
  baseUrl: string;
  /** Where exchanged tokens are kept (sealed in Redis when REDIS_URL is set). */
  secrets: SecretStore;
  timeoutMs: number;
  now?: () => number;
}

/** What names a person across their exchanged tokens (their rate budget, their warehouse login). */
export function exchangedBudgetId(personDigest: string): string {
  return credentialId("oidc", `person ${personDigest}`);
}

export class TokenExchange {
  private tokenEndpoint: Promise<URL> | undefined;
  /** An exchange in flight per person in this process: their concurrent calls share it. */
  private readonly pending = new Map<string, Promise<Exchanged>>();
  private readonly now: () => number;

  constructor(private readonly options: TokenExchangeOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The credential of one call: the person's exchanged token. `personDigest` names it (keyed). */
  credentialFor(person: Person, personDigest: string): LabdataCredential {
    const name = `labdata:exchanged-token:${this.options.baseUrl}:${personDigest}`;
    return {
      method: "oidc",
      description: "OpenID Connect: your sign-in to this MCP server, exchanged at the identity provider",
      // Per token the person signed in with, since a client per id keeps this credential (and so the
      // token it exchanges): a renewed sign-in gets its own. One rate budget per person across them.
      id: credentialId("oidc", `exchange ${personDigest} ${person.accessToken}`),
      budgetId: exchangedBudgetId(personDigest),
      authorize: async (headers, signal) => {
        const token = await this.current(name, person, signal);
        headers.set("authorization", `Bearer ${token.value}`);
      },
      renewAfterUnauthorized: async (signal, sentAuthorization) => {
        // The platform refused it (revoked, or its clock disagrees): no replica may use it again.
        const refused = sentAuthorization?.replace(/^Bearer /, "");
        const stored = await this.options.secrets.read(name);
        const parsed = stored ? storedSchema.safeParse(safeJson(stored.value)) : undefined;
        if (stored && parsed?.success && parsed.data.value === refused) {
          await this.options.secrets.remove(name, stored.version);
        }
        await this.current(name, person, signal, refused);
        return true;
      },
    };
  }

  /** Forgets the person's exchanged token; true when there was one. */
  forget(personDigest: string): Promise<boolean> {
    return this.options.secrets.remove(`labdata:exchanged-token:${this.options.baseUrl}:${personDigest}`);
  }

  /** The kept token while it is good and not `refused`; else a fresh exchange, shared by concurrent calls. */
  private async current(
    name: string,
    person: Person,
    signal?: AbortSignal,
    refused?: string,
  ): Promise<Exchanged> {
    const stored = await this.options.secrets.read(name);
    const parsed = stored ? storedSchema.safeParse(safeJson(stored.value)) : undefined;
    if (parsed?.success && this.now() < parsed.data.renewAt && parsed.data.value !== refused)
      return parsed.data;
    const known = this.pending.get(name);
    if (known) return known;
    const exchanging = this.exchange(person, signal).then(async (fresh) => {
      await this.options.secrets.write(name, JSON.stringify(fresh), {
        ttlMs: Math.max(1, fresh.expiresAt - this.now()),
      });
      return fresh;
    });
    this.pending.set(name, exchanging);
    const done = () => {
      if (this.pending.get(name) === exchanging) this.pending.delete(name);
    };
    exchanging.then(done, done);
    return exchanging;
  }

  private async exchange(person: Person, signal?: AbortSignal): Promise<Exchanged> {
    const { audience, clientId } = this.options;
    const endpoint = await this.endpoint();
    const secret = await this.clientSecret();
    // RFC 6749 section 2.3.1: client_secret_basic, each part form-encoded first.
    const basic = Buffer.from(`${formEncode(clientId)}:${formEncode(secret)}`).toString("base64");
    const body = new URLSearchParams({
      grant_type: GRANT,
      subject_token: person.accessToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      requested_token_type: ID_TOKEN_TYPE,
      audience,
    });
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers: { authorization: `Basic ${basic}`, accept: "application/json" },
        body,
        // The client secret is in the request: a redirect is an error, never a reason to send it elsewhere.
        redirect: "manual",
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch {
      throw new ActionableError(
        `The identity provider's token endpoint (${endpoint.origin}) did not answer the token exchange. ` +
          "Try again shortly; if it persists, the operator checks that MCP_AUTH_ISSUER is reachable from this server",
      );
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw refusalError(response.status, json, this.options);
    const answer = answerSchema.safeParse(json);
    if (!answer.success) {
      throw new ActionableError(
        "The identity provider answered the token exchange without a token. The operator checks that " +
          "MCP_AUTH_ISSUER supports OAuth 2.0 Token Exchange (RFC 8693) for LABDATA_TOKEN_EXCHANGE_CLIENT_ID",
      );
    }
    const token = answer.data.access_token;
    const at = this.now();
    const lifetimeMs = (await lifetimeSeconds(answer.data.expires_in, token, at)) * 1000;
    return {
      value: token,
      renewAt: at + Math.max(lifetimeMs - RENEW_MARGIN_MS, lifetimeMs * 0.9),
      expiresAt: at + lifetimeMs,
    };
  }

  /** The provider's token endpoint, from its metadata (checked to name MCP_AUTH_ISSUER); read once. */
  private endpoint(): Promise<URL> {
    this.tokenEndpoint ??= discover(this.options.issuer).then((metadata) => {
      if (!metadata.tokenEndpoint) throw new Error("no token_endpoint in its metadata");
      return metadata.tokenEndpoint;
    });
    const endpoint = this.tokenEndpoint;
    return endpoint.catch((error: unknown) => {
      // A failure is not kept: the next call reads the metadata again.
      if (this.tokenEndpoint === endpoint) this.tokenEndpoint = undefined;
      const why = error instanceof Error ? error.message : "unreadable";
      throw new ActionableError(
        `Cannot find the identity provider's token endpoint for the token exchange (${why}). ` +
          "Try again shortly; if it persists, the operator checks MCP_AUTH_ISSUER",
      );
    });
  }

  private async clientSecret(): Promise<string> {
    const source = this.options.clientSecret;
    if ("value" in source) return source.value;
    return readSecretFile(
      source.file,
      "LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE",
      "The operator writes the client secret into it.",
    );
  }
}

/** The provider's refusal, said as what to fix and who fixes it. */
function refusalError(status: number, json: unknown, options: TokenExchangeOptions): ActionableError {
  const parsed = refusalSchema.safeParse(json);
  const known = parsed.success && KNOWN_CODES.has(parsed.data.error) ? parsed.data.error : undefined;
  const code =
    known ?? (parsed.success ? `HTTP ${status}, an error code this server does not know` : `HTTP ${status}`);
  const refused = `The identity provider refused the token exchange (${code}).`;
  switch (known) {
    case "invalid_grant":
      return new ActionableError(
        `${refused} Your sign-in to this server has expired or was revoked: sign in to this server again. ` +
          "If it persists, the operator checks that MCP_AUTH_ISSUER issues the tokens people sign in with",
      );
    case "invalid_client":
      return new ActionableError(
        `${refused} The operator checks LABDATA_TOKEN_EXCHANGE_CLIENT_ID (${options.clientId}) and its ` +
          "secret (LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET or LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE)",
      );
    case "unauthorized_client":
      return new ActionableError(
        `${refused} The operator allows the client ${options.clientId} to use token exchange at the ` +
          "identity provider (docs/deployment.md, token exchange)",
      );
    case "invalid_target":
      return new ActionableError(
        `${refused} The operator allows the client ${options.clientId} to exchange for the audience ` +
          `${options.audience} at the identity provider, or corrects LABDATA_TOKEN_EXCHANGE_AUDIENCE`,
      );
    default:
      return new ActionableError(
        `${refused} The operator checks that the identity provider allows OAuth 2.0 Token Exchange for ` +
          `${options.clientId} to the audience ${options.audience} (docs/deployment.md, token exchange)`,
      );
  }
}

async function lifetimeSeconds(
  expiresIn: number | string | undefined,
  token: string,
  now: number,
): Promise<number> {
  const seconds = Number(expiresIn);
  if (expiresIn !== undefined && expiresIn !== "" && Number.isFinite(seconds) && seconds > 0) return seconds;
  // jose is loaded only here: a server without token exchange never needs it.
  const { decodeJwt } = await import("jose");
  try {
    const { exp } = decodeJwt(token);
    if (typeof exp === "number") return Math.max(1, exp - Math.floor(now / 1000));
  } catch {
    // not a JWT: the default lifetime
  }
  return DEFAULT_LIFETIME_SEC;
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
