// The clients the authorization server knows: those registered here (RFC 7591 dynamic registration),
// and those whose client_id is the https URL of their own metadata document (the OAuth Client ID
// Metadata Document draft, as the MCP authorization spec uses it), fetched when first seen and kept
// for a while on the provider's clock.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../common/clock.js";
import { getJson } from "../../common/https-json.js";
import { redirectUriProblem } from "./redirect-uris.js";

export type ClientAuthMethod = "none" | "client_secret_post" | "client_secret_basic";
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = [
  "none",
  "client_secret_post",
  "client_secret_basic",
];

export interface OAuthClient {
  clientId: string;
  /** Confidential clients (auth method other than none) only. */
  clientSecret?: string;
  authMethod: ClientAuthMethod;
  redirectUris: readonly string[];
  /** Shown on the sign-in page: said by the client itself, so never trusted for anything else. */
  name: string;
  source: "registration" | "metadata_document";
  /** The grant types it registered (RFC 7591); absent: authorization_code and refresh_token. */
  grantTypes?: readonly string[];
}

export type ClientLookup = { ok: true; client: OAuthClient } | { ok: false; problem: string };

// The draft recommends a small limit; a metadata document is a few hundred bytes.
const DOCUMENT_MAX_BYTES = 5 * 1024;
const DOCUMENT_TIMEOUT_MS = 5000;
const DOCUMENT_CACHE_MS = 5 * 60_000;
const MAX_REDIRECT_URIS = 20;

const documentSchema = z.looseObject({
  client_id: z.string(),
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(z.string().max(2000)).min(1).max(MAX_REDIRECT_URIS),
  token_endpoint_auth_method: z.string().optional(),
});

/** A client_id that names a metadata document: an https URL with a path (not just the origin). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === "https:" && url.pathname !== "/" && url.hash === "";
  } catch {
    return false;
  }
}

export class Clients {
  readonly #registered = new Map<string, OAuthClient>();
  readonly #documents = new Map<string, { client: OAuthClient; fetchedAt: number }>();

  constructor(
    private readonly clock: Clock,
    /** The CAs the provider trusts when it fetches a metadata document. */
    private readonly trustedCaPems: string[],
  ) {}

  /** A new client from validated registration metadata; confidential ones get a secret. */
  register(metadata: {
    authMethod: ClientAuthMethod;
    redirectUris: string[];
    name?: string;
    grantTypes?: readonly string[];
  }): OAuthClient {
    const client: OAuthClient = {
      clientId: `idp-client-${randomBytes(12).toString("hex")}`,
      authMethod: metadata.authMethod,
      redirectUris: metadata.redirectUris,
      name: metadata.name ?? "An unnamed application",
      source: "registration",
      ...(metadata.grantTypes === undefined ? {} : { grantTypes: metadata.grantTypes }),
      ...(metadata.authMethod === "none" ? {} : { clientSecret: randomBytes(24).toString("base64url") }),
    };
    this.#registered.set(client.clientId, client);
    return client;
  }

  async find(clientId: string): Promise<ClientLookup> {
    const registered = this.#registered.get(clientId);
    if (registered) return { ok: true, client: registered };
    if (!isMetadataDocumentUrl(clientId)) {
      return { ok: false, problem: "No application is registered with this client_id." };
    }
    const cached = this.#documents.get(clientId);
    if (cached && this.clock.now() - cached.fetchedAt < DOCUMENT_CACHE_MS)
      return { ok: true, client: cached.client };
    const fetched = await this.#fetchDocument(clientId);
    if (fetched.ok) this.#documents.set(clientId, { client: fetched.client, fetchedAt: this.clock.now() });
    return fetched;
  }

  async #fetchDocument(url: string): Promise<ClientLookup> {
    let body: unknown;
    try {
      body = await getJson(url, this.trustedCaPems, {
        maxBytes: DOCUMENT_MAX_BYTES,
        timeoutMs: DOCUMENT_TIMEOUT_MS,
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : "unreadable";
      return {
        ok: false,
        problem: `The client's metadata document at this client_id could not be read (${why}).`,
      };
    }
    const parsed = documentSchema.safeParse(body);
    if (!parsed.success) {
      return {
        ok: false,
        problem: "The client's metadata document is not valid: it needs client_id and redirect_uris.",
      };
    }
    const doc = parsed.data;
    if (doc.client_id !== url) {
      return {
        ok: false,
        problem: "The client's metadata document names another client_id than its own URL.",
      };
    }
    // A document is public, so it cannot hold a shared secret: such clients authenticate with none.
    if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== "none") {
      return { ok: false, problem: "A client metadata document must use token_endpoint_auth_method none." };
    }
    const invalid = doc.redirect_uris.map(redirectUriProblem).find((p) => p !== undefined);
    if (invalid)
      return {
        ok: false,
        problem: `The client's metadata document has an invalid redirect URI: ${invalid}.`,
      };
    return {
      ok: true,
      client: {
        clientId: url,
        authMethod: "none",
        redirectUris: doc.redirect_uris,
        name: doc.client_name ?? new URL(url).host,
        source: "metadata_document",
      },
    };
  }
}
