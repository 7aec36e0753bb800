// Which era a POST without a session belongs to. The SDK's isLegacyRequest classifies it the way its
// handler will (and the handler classifies it again); a single request or notification whose params
// carry the envelope claim is never legacy to it, so that common case is known without the first pass.
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

/** Whether the 2026-07-28 handler answers this POST (its body already parsed). */
export async function isModernPost(request: Request, body: unknown): Promise<boolean> {
  return claimsModernEra(body) || !(await isLegacyRequest(request, body));
}

/**
 * The SDK's own rule, narrowed: a claim (the protocol-version key in params._meta, valid or not) makes
 * a request or notification modern, or a rejection the modern path answers. Left to the SDK: batches,
 * posted responses, and initialize (legacy unless its claim is valid).
 */
function claimsModernEra(body: unknown): boolean {
  if (!isObject(body) || body.method === "initialize" || "result" in body || "error" in body) return false;
  const meta = isObject(body.params) ? body.params._meta : undefined;
  return isObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
