// The HTTP transport's guards against other machines and other pages: the Host names it answers to
// (DNS rebinding), the Origins it serves, and bearer tokens compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** A host as it appears in a URL: an IPv6 address in brackets, names in lower case. */
export function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase();
}

/**
 * The Host headers the server answers to: loopback names and the bound host, with or without the
 * port, and in team mode the public host of MCP_AUTH_AUDIENCE (clients reach it through a proxy, often).
 */
export function allowedHostsOf(boundHost: string, port: number, publicUrl?: URL): Set<string> {
  const publicNames = publicUrl ? [publicUrl.hostname.toLowerCase()] : [];
  const hostNames = new Set([...LOOPBACK_NAMES, hostForUrl(boundHost), ...publicNames]);
  const publicHosts = publicUrl ? [publicUrl.host.toLowerCase()] : [];
  return new Set([...[...hostNames].flatMap((name) => [name, `${name}:${port}`]), ...publicHosts]);
}

export function hostAllowed(req: IncomingMessage, allowedHosts: Set<string>): boolean {
  return allowedHosts.has((req.headers.host ?? "").toLowerCase());
}

/** Browsers send Origin; only pages served from this machine (or the bound host) may call us. */
export function isLocalOrigin(origin: string, boundHost: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return LOOPBACK_NAMES.includes(hostname) || hostname === hostForUrl(boundHost);
  } catch {
    return false;
  }
}

/** A token as kept for comparison: its SHA-256, so that comparing takes the same time for any length. */
export function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match !== null && timingSafeEqual(digest((match[1] as string).trim()), expected);
}
