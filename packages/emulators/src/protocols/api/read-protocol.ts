// GET /api/v4/protocols/{id or uri}, GET /api/v4/protocols/{id or uri}/steps and
// GET /api/v3/session/profile. A protocol the caller may not see answers exactly as one that does not
// exist (404), so private protocols cannot be discovered by probing ids or URIs.
import type { HttpResponse } from "../../common/response.js";
import type { Protocol } from "../model.js";
import type { ApiRequest } from "./api-answer.js";
import { profileWire, protocolWire, stepsWire } from "./api-shapes.js";
import { canSee } from "./visibility.js";

/** The protocol an id or URI names, when the caller may see it; undefined for an undecodable one. */
export function visibleProtocol(api: ApiRequest, idOrUri: string | undefined): Protocol | undefined {
  const protocol = idOrUri === undefined ? undefined : api.ctx.store.findProtocol(idOrUri);
  return protocol && canSee(protocol, api.viewer) ? protocol : undefined;
}

export function protocolAnswer(api: ApiRequest, protocol: Protocol): HttpResponse {
  // v4 `payload` or v3 `protocol` (fact sheet §4, §12).
  return api.answer.ok({ [api.view.dialect.protocolKey]: protocolWire(protocol, api.ctx.store, api.view) });
}

export function stepsAnswer(api: ApiRequest, protocol: Protocol): HttpResponse {
  // Observed `payload` or docs-derived `steps` (fact sheet §5.1, §12).
  return api.answer.ok({ [api.view.dialect.stepsKey]: stepsWire(protocol, api.view) });
}

export function profileAnswer(api: ApiRequest): HttpResponse {
  return api.answer.ok({ user: profileWire(api.viewer) });
}
