// The cookies of the emulators' browser pages (sign-in and consent forms): read one from a request,
// and write one that only HTTPS carries and no script can read.
import type { IncomingMessage } from "node:http";

export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Secure and HttpOnly; SameSite=Lax still sends it when the client's link opens the authorize page. */
export function setCookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; Secure; HttpOnly; SameSite=Lax`;
}
