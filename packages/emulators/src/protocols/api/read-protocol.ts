// GET /api/v4/protocols/{id or uri}, GET /api/v4/protocols/{id or uri}/steps and
// GET /api/v3/session/profile. A protocol the caller may not see answers exactly as one that does not
// exist (404), so private protocols cannot be discovered by probing ids or URIs.

import type { PathParams } from "../../common/path-pattern.js";
import type { HttpResponse } from "../../common/response.js";
import type { Protocol } from "../model.js";
import type { ApiRequest } from "./api-answer.js";
import { profileWire, protocolWire, reagentWire, stepsWire } from "./api-shapes.js";
import { canSee } from "./visibility.js";

/** The protocol an id or URI names, when the caller may see it; undefined for an undecodable one. */
export function visibleProtocol(request: ApiRequest, idOrUri: string | undefined): Protocol | undefined {
  const protocol = idOrUri === undefined ? undefined : request.ctx.store.findProtocol(idOrUri);
  return protocol && canSee(protocol, request.viewer) ? protocol : undefined;
}

export function protocolAnswer(request: ApiRequest, protocol: Protocol): HttpResponse {
  // v4 `payload` or v3 `protocol` (fact sheet §4, §12).
  return request.answer.ok({
    [request.view.dialect.protocolKey]: protocolWire(protocol, request.ctx.store, request.view),
  });
}

/** The version a `/vN` or `/latest` segment names (fact sheet §4.1); undefined for another segment. */
function versionOf(protocol: Protocol, segment: string): number | undefined {
  const latest = protocol.versions[protocol.versions.length - 1]?.versionId ?? 1;
  if (segment === "latest") return latest;
  const n = /^v(\d{1,6})$/.exec(segment)?.[1];
  return n !== undefined && protocol.versions.some((v) => v.versionId === Number(n)) ? Number(n) : undefined;
}

/** GET /api/v4/protocols/{id or uri}/v{N} (or /latest): the protocol as that version. */
export function versionAnswer(request: ApiRequest, protocol: Protocol, params: PathParams): HttpResponse {
  const version = versionOf(protocol, params.version ?? "");
  if (version === undefined) return request.answer.notFound("Protocol version not found.");
  return request.answer.ok({
    [request.view.dialect.protocolKey]: protocolWire(protocol, request.ctx.store, request.view, version),
  });
}

/** GET /api/v4/protocols/{id or uri}/v{N}/steps: the emulator keeps one set of steps for every version. */
export function versionStepsAnswer(
  request: ApiRequest,
  protocol: Protocol,
  params: PathParams,
): HttpResponse {
  if (versionOf(protocol, params.version ?? "") === undefined)
    return request.answer.notFound("Protocol version not found.");
  return stepsAnswer(request, protocol);
}

/** GET /api/v3/protocols/{id or uri}/materials: the reagent objects under `materials` (fact sheet §5.4). */
export function materialsAnswer(request: ApiRequest, protocol: Protocol): HttpResponse {
  return request.answer.ok({
    materials: protocol.materials.map((m, i) => reagentWire(m, protocol.id * 100 + i, request.view)),
  });
}

export function stepsAnswer(request: ApiRequest, protocol: Protocol): HttpResponse {
  // Observed `payload` or docs-derived `steps` (fact sheet §5.1, §12).
  return request.answer.ok({ [request.view.dialect.stepsKey]: stepsWire(protocol, request.view) });
}

export function profileAnswer(request: ApiRequest): HttpResponse {
  return request.answer.ok({ user: profileWire(request.viewer) });
}
