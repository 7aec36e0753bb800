// The token-protected API under /api: identify the caller, count the request against the caller's limit,
// insist on a valid token, then route. Counting comes first so that floods of bad tokens are limited
// (per address) like any other traffic; authentication before routing keeps paths from being probed.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendMethodNotAllowed, sendNotFound } from "./api-errors.js";
import { identifyCaller, rateKey, sendAuthError } from "./caller.js";
import type { ProtocolsContext } from "./context.js";
import { listProtocols } from "./list-protocols.js";
import { admit } from "./rate-limits.js";
import { getProfile, getProtocol, getSteps } from "./read-protocol.js";

const PROTOCOL_PATH = /^\/api\/v4\/protocols\/([^/]+)(\/steps)?$/;

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function handleApiRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: ProtocolsContext,
): void {
  const caller = identifyCaller(req, ctx);
  if (!admit(ctx.limits.api, rateKey(caller), res, "API requests")) return;
  if (caller.kind !== "user") {
    sendAuthError(res, caller);
    return;
  }
  const viewer = caller.user;
  const path = url.pathname;
  const match = PROTOCOL_PATH.exec(path);
  const idOrUri = match ? decodeSegment(match[1] ?? "") : undefined;
  if (path !== "/api/v3/protocols" && path !== "/api/v3/session/profile" && !match) {
    sendNotFound(res, "No such API endpoint.");
  } else if (req.method !== "GET" && req.method !== "HEAD") sendMethodNotAllowed(res, "GET");
  else if (path === "/api/v3/protocols") listProtocols(res, url, viewer, ctx);
  else if (path === "/api/v3/session/profile") getProfile(res, viewer);
  else if (idOrUri === undefined) sendNotFound(res, "Protocol not found.");
  else if (match?.[2]) getSteps(res, idOrUri, viewer, ctx);
  else getProtocol(res, idOrUri, viewer, ctx);
}
