// HTML escaping for the few pages and rich-text fields the emulators render.

/** `text` safe inside HTML text and attribute values (double- or single-quoted). */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
