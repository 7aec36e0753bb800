// An MCP client's OAuth side for tests: the SDK v2 OAuthClientProvider, kept in memory, whose "browser"
// is a fetch that opens the authorization URL and reads where the authorization server sends it back.
// With the identity provider's admin.autoApprove set, that is a redirect with a code, so the SDK's own
// auth() runs the whole sign-in (discovery, client ID metadata document or registration, PKCE, code
// exchange) without a page. Usable as a transport's authProvider too.
import {
  type AuthorizationServerMetadata,
  auth,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  registerClient,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  startAuthorization,
} from "@modelcontextprotocol/client";
import type { IdentityProvider } from "../../packages/emulators/src/idp/index.js";

export interface HeadlessOAuthOptions {
  /** Where the authorization server sends the browser back; nothing needs to listen there. */
  redirectUrl: string;
  /** An https URL serving this client's metadata document: then it is the client_id (no registration). */
  clientMetadataUrl?: string;
  clientName?: string;
  scope?: string;
  /** For dynamic registration; default none (a public client). */
  tokenEndpointAuthMethod?: "none" | "client_secret_basic" | "client_secret_post";
}

export class HeadlessOAuthProvider implements OAuthClientProvider {
  /** The query of the last redirect back (code, state, iss; or error), or undefined before any. */
  callback: URLSearchParams | undefined;
  readonly clientMetadataUrl: string | undefined;
  #client: StoredOAuthClientInformation | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly options: HeadlessOAuthOptions) {
    this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? "lab-mcp test client",
      redirect_uris: [this.options.redirectUrl],
      token_endpoint_auth_method: this.options.tokenEndpointAuthMethod ?? "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(this.options.scope === undefined ? {} : { scope: this.options.scope }),
    };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#client;
  }
  saveClientInformation(client: StoredOAuthClientInformation): void {
    this.#client = client;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error("no authorization was started");
    return this.#verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "client") this.#client = undefined;
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
    if (scope === "all" || scope === "discovery") this.#discovery = undefined;
  }

  /** Opens the page as a browser would; the authorization server must redirect straight back. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const response = await fetch(authorizationUrl, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (response.status !== 302 || !location) {
      throw new Error(`the authorization server answered ${response.status} instead of redirecting back`);
    }
    this.callback = new URL(location).searchParams;
  }
}

/**
 * The SDK's whole sign-in for `serverUrl` (an MCP server, or any URL whose protected resource metadata
 * names the authorization server): start, follow the redirect, exchange the code. Returns the tokens.
 */
export async function signInHeadless(
  provider: HeadlessOAuthProvider,
  serverUrl: string,
): Promise<StoredOAuthTokens> {
  if ((await auth(provider, { serverUrl })) === "AUTHORIZED") {
    const tokens = provider.tokens();
    if (tokens) return tokens;
  }
  const code = provider.callback?.get("code");
  if (!code) throw new Error(`the sign-in came back without a code: ${provider.callback}`);
  const iss = provider.callback?.get("iss") ?? undefined;
  if (
    (await auth(provider, { serverUrl, authorizationCode: code, ...(iss ? { iss } : {}) })) !== "AUTHORIZED"
  ) {
    throw new Error("the code exchange did not authorize");
  }
  const tokens = provider.tokens();
  if (!tokens) throw new Error("no tokens were saved");
  return tokens;
}

/**
 * An access token of `person` for `resource` (any URL: one with no MCP server behind it too), by the
 * SDK's steps of the authorization code flow with PKCE, done without a page: a public client registered
 * for the purpose, auto-approved as `person` for that client alone.
 */
export async function accessTokenHeadless(
  idp: IdentityProvider,
  person: string,
  resource: string,
  redirectUrl: string,
): Promise<string> {
  const metadata = (await discoverAuthorizationServerMetadata(idp.issuer)) as AuthorizationServerMetadata;
  const client = await registerClient(idp.issuer, {
    metadata,
    clientMetadata: {
      client_name: `${person}'s test client`,
      redirect_uris: [redirectUrl],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
    },
  });
  idp.admin.autoApprove(person, { clientId: client.client_id });
  try {
    const { authorizationUrl, codeVerifier } = await startAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      redirectUrl,
      resource: new URL(resource),
    });
    const back = await fetch(authorizationUrl, { redirect: "manual" });
    await back.body?.cancel();
    const query = new URL(back.headers.get("location") ?? "").searchParams;
    const tokens = await exchangeAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: query.get("code") ?? "",
      iss: query.get("iss") ?? "",
      codeVerifier,
      redirectUri: redirectUrl,
      resource: new URL(resource),
    });
    return tokens.access_token;
  } finally {
    idp.admin.autoApprove(null, { clientId: client.client_id });
  }
}

/**
 * A team server's own confidential client at the identity provider (MCP_AUTH_CLIENT_ID and
 * MCP_AUTH_CLIENT_SECRET), registered for its browser sign-in's callback on `origin`.
 */
export async function registerServerClient(
  idp: IdentityProvider,
  origin: string,
): Promise<{ MCP_AUTH_CLIENT_ID: string; MCP_AUTH_CLIENT_SECRET: string }> {
  const response = await fetch(`${idp.issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "lab-mcp team server",
      redirect_uris: [`${origin}/auth/browser/callback`],
      token_endpoint_auth_method: "client_secret_basic",
    }),
  });
  const client = (await response.json()) as { client_id: string; client_secret: string };
  return { MCP_AUTH_CLIENT_ID: client.client_id, MCP_AUTH_CLIENT_SECRET: client.client_secret };
}

/** The grant type of OAuth 2.0 Token Exchange (RFC 8693). */
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";

/**
 * A confidential client of `idp` registered with `grantTypes` (by default token exchange, as a team
 * server that exchanges its people's tokens for the lab data platform's is): its id and secret.
 */
export async function registerConfidentialClient(
  idp: IdentityProvider,
  grantTypes: string[] = [TOKEN_EXCHANGE_GRANT],
): Promise<{ id: string; secret: string }> {
  const metadata = (await discoverAuthorizationServerMetadata(idp.issuer)) as AuthorizationServerMetadata;
  const client = await registerClient(idp.issuer, {
    metadata,
    clientMetadata: {
      client_name: "labdata-mcp",
      redirect_uris: ["http://127.0.0.1:9/callback"],
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: grantTypes,
    },
  });
  if (!client.client_secret) throw new Error("the identity provider gave the confidential client no secret");
  return { id: client.client_id, secret: client.client_secret };
}
