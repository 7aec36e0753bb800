// GET /api/v4/protocols/{id or uri}, GET /api/v4/protocols/{id or uri}/steps and
// GET /api/v3/session/profile. A protocol the caller may not see answers exactly as one that does not
// exist (404), so private protocols cannot be discovered by probing ids or URIs.
import type { HttpResponse } from "../../common/response.js";
import type { ProtocolsContext } from "../context.js";
import type { Protocol, User } from "../model.js";
import type { ApiAnswer } from "./api-answer.js";
import { profileWire, protocolWire, stepsWire, type WireView } from "./api-shapes.js";
import { canSee } from "./visibility.js";

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
): HttpResponse {
  const protocol = visibleProtocol(idOrUri, viewer, ctx);
  // v4 `payload` or v3 `protocol` (fact sheet §4, §12).
  if (!protocol) return answer.notFound("Protocol not found.");
  return answer.ok({ [view.dialect.protocolKey]: protocolWire(protocol, ctx.store, view) });
}

export function getSteps(
  answer: ApiAnswer,
  idOrUri: string,
  viewer: User,
  ctx: ProtocolsContext,
  view: WireView,
): HttpResponse {
  const protocol = visibleProtocol(idOrUri, viewer, ctx);
  // Observed `payload` or docs-derived `steps` (fact sheet §5.1, §12).
  if (!protocol) return answer.notFound("Protocol not found.");
  return answer.ok({ [view.dialect.stepsKey]: stepsWire(protocol, view) });
}

export function getProfile(answer: ApiAnswer, viewer: User): HttpResponse {
  return answer.ok({ user: profileWire(viewer) });
}
