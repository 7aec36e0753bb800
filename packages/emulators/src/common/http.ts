// Small request helpers every emulator needs, kept free of any framework.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The token of the request's `Authorization: Bearer <token>` header; undefined when absent or another scheme. */
export function readBearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return match?.[1];
}

// HTTP Basic per RFC 6749 section 2.3.1: form-encoded id and secret, joined by a colon, in base64.
export function readBasicCredentials(
  req: IncomingMessage,
): { id: string; secret: string } | "malformed" | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match?.[1])
    return req.headers.authorization?.toLowerCase().startsWith("basic") ? "malformed" : undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  const decode = (s: string): string => decodeURIComponent(s.replaceAll("+", " "));
  try {
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}

// Compares digests so neither the length nor a prefix of the secret leaks through timing.
export function secretsEqual(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (s: string): Buffer => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export class BodyTooLargeError extends Error {}

/** Reads a request body as text, refusing more than `maxBytes` so a test bug cannot exhaust memory. */
export async function readBody(req: IncomingMessage, maxBytes = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) throw new BodyTooLargeError(`body larger than ${maxBytes} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}
