// The token-protected API under /api: identify the caller, count the request against the caller's limit,
// insist on a valid token, then route. Counting comes first so that floods of bad tokens are limited
// (per address) like any other traffic; authentication before routing keeps paths from being probed.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendMethodNotAllowed, sendNotFound } from "./api-errors.js";
import { identifyCaller, rateKey, sendAuthError } from "./caller.js";
import type { ProtocolsContext } from "./context.js";
import { apiVersionOf, errorTextKey } from "./dialect.js";
import { listProtocols } from "./list-protocols.js";
import { admit } from "./rate-limits.js";
import { getProfile, getProtocol, getSteps } from "./read-protocol.js";
import { apiAnswer, expiryWarning } from "./respond.js";
import { contentFormatOf } from "./rich-text.js";
import type { WireView } from "./wire.js";

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
  const path = url.pathname;
  const version = apiVersionOf(path);
  const textKey = errorTextKey(ctx.dialect, version);
  const caller = identifyCaller(req, ctx);
  if (!admit(ctx.limits.api, rateKey(caller), res, "API requests", textKey)) return;
  if (caller.kind !== "user") {
    sendAuthError(res, caller, ctx, version);
    return;
  }
  const viewer = caller.user;
  const warning = ctx.dialect.expiryWarning ? expiryWarning(caller.expiresAt, ctx.clock.now()) : {};
  const answer = apiAnswer(res, textKey, warning);
  const view: WireView = {
    dialect: ctx.dialect,
    version,
    contentFormat: contentFormatOf(url.searchParams.get("content_format")),
    origin: ctx.origin,
  };
  const match = PROTOCOL_PATH.exec(path);
  const idOrUri = match ? decodeSegment(match[1] ?? "") : undefined;
  if (path !== "/api/v3/protocols" && path !== "/api/v3/session/profile" && !match) {
    sendNotFound(res, "No such API endpoint.", textKey);
  } else if (req.method !== "GET" && req.method !== "HEAD") sendMethodNotAllowed(res, "GET", textKey);
  else if (path === "/api/v3/protocols") listProtocols(answer, url, viewer, ctx, view);
  else if (path === "/api/v3/session/profile") getProfile(answer, viewer);
  else if (idOrUri === undefined) answer.notFound("Protocol not found.");
  else if (match?.[2]) getSteps(answer, idOrUri, viewer, ctx, view);
  else getProtocol(answer, idOrUri, viewer, ctx, view);
}
