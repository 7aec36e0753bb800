// The token-protected API under /api: identify the caller, count the request against the caller's limit,
// insist on a valid token, then route. Counting comes first so that floods of bad tokens are limited
// (per address) like any other traffic; authentication before routing keeps paths from being probed.
import type { IncomingMessage } from "node:http";
import { decodedSegment, type PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, withHeaders } from "../../common/response.js";
import { matchRoute, type Route, route } from "../../common/routes.js";
import type { ProtocolsContext } from "../context.js";
import { apiVersionOf, errorTextKey } from "../dialect.js";
import type { Protocol } from "../model.js";
import { type ApiRequest, apiAnswer, expiryWarning } from "./api-answer.js";
import { apiMethodNotAllowed, apiNotFound } from "./api-errors.js";
import type { WireView } from "./api-shapes.js";
import { authError, identifyCaller, rateKey } from "./caller.js";
import { listProtocols } from "./list-protocols.js";
import { listWorkspaces, researcherProtocols, workspaceAnswer, workspaceProtocols } from "./more-lists.js";
import { admit } from "./rate-limits.js";
import {
  materialsAnswer,
  profileAnswer,
  protocolAnswer,
  stepsAnswer,
  versionAnswer,
  versionStepsAnswer,
  visibleProtocol,
} from "./read-protocol.js";
import { contentFormatOf } from "./rich-text.js";
import { createDraft, updateProtocol, writableProtocol } from "./write-protocol.js";
import { deleteSteps, writeSteps } from "./write-steps.js";

// The id or URI arrives undecoded: one that cannot be decoded names no protocol, and says so.
function protocolRoute(
  template: string,
  answer: (
    request: ApiRequest,
    protocol: Protocol,
    params: PathParams,
  ) => HttpResponse | Promise<HttpResponse>,
): Route<ApiRequest> {
  const handle = (request: ApiRequest, params: PathParams) => {
    const protocol = visibleProtocol(request, decodedSegment(params.idOrUri ?? ""));
    return protocol ? answer(request, protocol, params) : request.answer.notFound("Protocol not found.");
  };
  return route("GET", template, handle, { decode: false });
}

// Writes: only the owner of an unpublished protocol (write-protocol.ts).
function writeRoute(
  method: string,
  template: string,
  answer: (request: ApiRequest, protocol: Protocol) => Promise<HttpResponse>,
): Route<ApiRequest> {
  const handle = (request: ApiRequest, params: PathParams) => {
    const found = writableProtocol(request, decodedSegment(params.idOrUri ?? ""));
    return "status" in found ? found : answer(request, found);
  };
  return route(method, template, handle, { decode: false });
}

const param =
  (name: string) =>
  (handler: (request: ApiRequest, value: string) => HttpResponse | Promise<HttpResponse>) =>
  (request: ApiRequest, params: PathParams) =>
    handler(request, params[name] ?? "");

const API_ROUTES: readonly Route<ApiRequest>[] = [
  route("GET", "/api/v3/protocols", listProtocols),
  route("POST", "/api/v3/protocols/:guid", param("guid")(createDraft)),
  protocolRoute("/api/v3/protocols/:idOrUri/materials", materialsAnswer),
  route("GET", "/api/v3/session/profile", profileAnswer),
  route("GET", "/api/v3/researchers/:username/protocols", param("username")(researcherProtocols)),
  route("GET", "/api/v3/workspaces", listWorkspaces),
  route("GET", "/api/v3/workspaces/:uri", param("uri")(workspaceAnswer)),
  route("GET", "/api/v3/workspaces/:uri/protocols", param("uri")(workspaceProtocols)),
  protocolRoute("/api/v4/protocols/:idOrUri", protocolAnswer),
  writeRoute("PUT", "/api/v4/protocols/:idOrUri", updateProtocol),
  protocolRoute("/api/v4/protocols/:idOrUri/steps", stepsAnswer),
  writeRoute("POST", "/api/v4/protocols/:idOrUri/steps", writeSteps),
  writeRoute("DELETE", "/api/v4/protocols/:idOrUri/steps", deleteSteps),
  protocolRoute("/api/v4/protocols/:idOrUri/:version", versionAnswer),
  protocolRoute("/api/v4/protocols/:idOrUri/:version/steps", versionStepsAnswer),
];

export async function answerApiRequest(
  req: IncomingMessage,
  url: URL,
  ctx: ProtocolsContext,
): Promise<HttpResponse> {
  const path = url.pathname;
  const version = apiVersionOf(path);
  const textKey = errorTextKey(ctx.dialect, version);
  const caller = identifyCaller(req, ctx);
  const rate = admit(ctx.limits.api, rateKey(caller), "API requests", textKey);
  if (rate.refusal) return withHeaders(rate.refusal, rate.headers);
  if (caller.kind !== "user") return withHeaders(authError(caller, ctx, version), rate.headers);

  const found = matchRoute(API_ROUTES, req.method ?? "GET", path, { headAsGet: true });
  let response: HttpResponse;
  if (found.kind === "no-route") response = apiNotFound("No such API endpoint.", textKey);
  else if (found.kind === "wrong-method") response = apiMethodNotAllowed(found.allow, textKey);
  else {
    const warning = ctx.dialect.expiryWarning ? expiryWarning(caller.expiresAt, ctx.clock.now()) : {};
    const view: WireView = {
      dialect: ctx.dialect,
      version,
      contentFormat: contentFormatOf(url.searchParams.get("content_format")),
      origin: ctx.origin,
      viewerId: caller.user.id,
    };
    const request: ApiRequest = {
      req,
      url,
      viewer: caller.user,
      ctx,
      view,
      answer: apiAnswer(textKey, warning),
    };
    response = await found.route.handle(request, found.params);
  }
  return withHeaders(response, rate.headers);
}
