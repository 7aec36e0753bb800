// Which redirect URIs a client may register (OAuth 2.1 section 2.3.1, RFC 8252 section 7.3): https, or
// plain http only back to this machine's loopback interface, where a native client listens; never a
// fragment. A request must then name one of the client's URIs exactly: no prefix or wildcard matching.
// Names under `localhost` (RFC 6761, e.g. lab.localhost) count as loopback: browsers send them there.

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Why `uri` cannot be a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash !== "" || uri.includes("#")) return `${uri} must not have a fragment`;
  if (url.username !== "" || url.password !== "") return `${uri} must not carry credentials`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && (LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith(".localhost")))
    return undefined;
  return `${uri} must be https, or http on a loopback address (127.0.0.1, [::1] or localhost)`;
}
