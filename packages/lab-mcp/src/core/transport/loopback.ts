// Whether a bind address is this machine's loopback: only then may the HTTP transport serve without a token.
import { isIPv4 } from "node:net";

export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare === "::1") return true;
  return isIPv4(bare) && bare.startsWith("127.");
}

/**
 * A loopback host, or a name under `localhost` (RFC 6761: browsers send `lab.localhost` to loopback and
 * count it as a secure origin), where a public URL may be plain http.
 */
export function isLoopbackName(host: string): boolean {
  return isLoopbackHost(host) || host.trim().toLowerCase().endsWith(".localhost");
}
