// GET /api/v4/protocols/{id or uri}, GET /api/v4/protocols/{id or uri}/steps and
// GET /api/v3/session/profile. A protocol the caller may not see answers exactly as one that does not
// exist (404), so private protocols cannot be discovered by probing ids or URIs.
import type { ServerResponse } from "node:http";
import { sendNotFound } from "./api-errors.js";
import type { ProtocolsContext } from "./context.js";
import type { Protocol, User } from "./model.js";
import { sendOk } from "./respond.js";
import { canSee } from "./visibility.js";
import { profileWire, protocolWire, stepsWire } from "./wire.js";

function visibleProtocol(idOrUri: string, viewer: User, ctx: ProtocolsContext): Protocol | undefined {
  const protocol = ctx.store.findProtocol(idOrUri);
  return protocol && canSee(protocol, viewer) ? protocol : undefined;
}

export function getProtocol(res: ServerResponse, idOrUri: string, viewer: User, ctx: ProtocolsContext): void {
  const protocol = visibleProtocol(idOrUri, viewer, ctx);
  if (protocol) sendOk(res, { payload: protocolWire(protocol, ctx.store, ctx.origin) });
  else sendNotFound(res, "Protocol not found.");
}

export function getSteps(res: ServerResponse, idOrUri: string, viewer: User, ctx: ProtocolsContext): void {
  const protocol = visibleProtocol(idOrUri, viewer, ctx);
  if (protocol) sendOk(res, { payload: stepsWire(protocol) });
  else sendNotFound(res, "Protocol not found.");
}

export function getProfile(res: ServerResponse, viewer: User): void {
  sendOk(res, { user: profileWire(viewer) });
}
