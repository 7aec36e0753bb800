// GET /api/v4/protocols/{id or uri}, GET /api/v4/protocols/{id or uri}/steps and
// GET /api/v3/session/profile. A protocol the caller may not see answers exactly as one that does not
// exist (404), so private protocols cannot be discovered by probing ids or URIs.
import type { ProtocolsContext } from "./context.js";
import type { Protocol, User } from "./model.js";
import type { ApiAnswer } from "./respond.js";
import { canSee } from "./visibility.js";
import { profileWire, protocolWire, stepsWire, type WireView } from "./wire.js";

function visibleProtocol(idOrUri: string, viewer: User, ctx: ProtocolsContext): Protocol | undefined {
  const protocol = ctx.store.findProtocol(idOrUri);
  return protocol && canSee(protocol, viewer) ? protocol : undefined;
}

export function getProtocol(
  answer: ApiAnswer,
  idOrUri: string,
  viewer: User,
  ctx: ProtocolsContext,
  view: WireView,
): void {
  const protocol = visibleProtocol(idOrUri, viewer, ctx);
  // v4 `payload` or v3 `protocol` (fact sheet §4, §12).
  if (protocol) answer.ok({ [view.dialect.protocolKey]: protocolWire(protocol, ctx.store, view) });
  else answer.notFound("Protocol not found.");
}

export function getSteps(
  answer: ApiAnswer,
  idOrUri: string,
  viewer: User,
  ctx: ProtocolsContext,
  view: WireView,
): void {
  const protocol = visibleProtocol(idOrUri, viewer, ctx);
  // Observed `payload` or docs-derived `steps` (fact sheet §5.1, §12).
  if (protocol) answer.ok({ [view.dialect.stepsKey]: stepsWire(protocol, view) });
  else answer.notFound("Protocol not found.");
}

export function getProfile(answer: ApiAnswer, viewer: User): void {
  answer.ok({ user: profileWire(viewer) });
}
