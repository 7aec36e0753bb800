// The authorization server's metadata (RFC 8414, else OpenID discovery), checked before it is trusted:
// the document must name the issuer that was configured (RFC 8414 §3.3, so a metadata page cannot hand
// out another issuer's keys), and the keys and introspection are fetched over https unless they are on
// this host (a plain-http JWKS off loopback lets anyone on the path swap the keys tokens are checked with).

export interface AuthorizationServerMetadata {
  jwksUri: URL;
  introspectionEndpoint?: URL;
  /** Where a browser signs in (the server's own client, browser-sign-in.ts). */
  authorizationEndpoint?: URL;
  /** Where that browser's code is traded, and where a service exchanges a person's token (RFC 8693). */
  tokenEndpoint?: URL;
}

type MetadataDocument = {
  issuer?: unknown;
  jwks_uri?: unknown;
  introspection_endpoint?: unknown;
  authorization_endpoint?: unknown;
  token_endpoint?: unknown;
};

const DISCOVERY_TIMEOUT_MS = 10_000;

export async function discover(issuer: string): Promise<AuthorizationServerMetadata> {
  const base = stripSlash(issuer);
  const issuerUrl = new URL(base);
  const suffix = issuerUrl.pathname === "/" ? "" : issuerUrl.pathname;
  const candidates = [
    `${issuerUrl.origin}/.well-known/oauth-authorization-server${suffix}`,
    `${base}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    const response = await fetch(candidate, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) }).catch(
      () => undefined,
    );
    if (!response?.ok) continue;
    const document = (await response.json().catch(() => undefined)) as MetadataDocument | undefined;
    if (typeof document?.jwks_uri !== "string") continue;
    return checkedMetadata(issuer, document);
  }
  throw new Error("no jwks_uri in its metadata");
}

/** The metadata's endpoints, or an Error saying why the document is not to be trusted. */
export function checkedMetadata(issuer: string, document: MetadataDocument): AuthorizationServerMetadata {
  if (typeof document.issuer !== "string" || stripSlash(document.issuer) !== stripSlash(issuer)) {
    throw new Error("its metadata names another issuer");
  }
  const jwksUri = safeEndpoint(document.jwks_uri, "jwks_uri");
  const optional = (name: "introspection_endpoint" | "authorization_endpoint" | "token_endpoint") =>
    typeof document[name] === "string" ? safeEndpoint(document[name], name) : undefined;
  return {
    jwksUri,
    introspectionEndpoint: optional("introspection_endpoint"),
    authorizationEndpoint: optional("authorization_endpoint"),
    tokenEndpoint: optional("token_endpoint"),
  };
}

function safeEndpoint(value: unknown, name: string): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error(`its ${name} is not a URL`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return url;
  throw new Error(`its ${name} is not https`);
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

export function stripSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}
