// HTML escaping for the few pages and rich-text fields the emulators render, and how a page is answered.
import type { HttpResponse, ResponseHeaders } from "./response.js";

/** `text` safe inside HTML text and attribute values (double- or single-quoted). */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A page for a person's browser: never cached, never framed (no clickjacking of its buttons), no script. */
export function htmlResponse(status: number, html: string, headers: ResponseHeaders = {}): HttpResponse {
  return {
    status,
    headers: {
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      ...headers,
    },
    body: { kind: "text", text: html, contentType: "text/html; charset=utf-8" },
  };
}
