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
