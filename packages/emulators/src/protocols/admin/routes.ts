// The protocols emulator's own admin endpoints, below the shared ones (/_admin/health, /faults,
// /requests, /clock). Each maps to one operation of the in-process admin handle; JSON in and out.
import type { IncomingMessage } from "node:http";
import type { AdminRequest, AdminRoute, AdminRoutes } from "../../common/admin.js";
import { BodyTooLargeError, readBody } from "../../common/http.js";
import { decodedSegment, type PathParams } from "../../common/path-pattern.js";
import { emptyResponse, type HttpResponse, jsonResponse } from "../../common/response.js";
import { route as commonRoute } from "../../common/routes.js";
import { DEFAULT_DIALECT_PRESET, type DialectPatch } from "../dialect.js";
import type { SettingsPatch } from "../settings.js";
import { StoreError } from "../store.js";
import type { NewApplication, NewProtocol, NewUser, NewWorkspace, ProtocolsAdmin } from "./handle.js";

// The body's type is only a claim until the admin handle has validated every field.
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  let text: string;
  try {
    text = await readBody(req, 1024 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new StoreError(400, error.message);
    throw error;
  }
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new StoreError(400, "the body must be JSON");
  }
}

function clientIdOf(params: PathParams): string {
  const clientId = decodedSegment(params.clientId ?? "");
  if (clientId === undefined) throw new StoreError(404, "no application with this clientId");
  return clientId;
}

const ERROR_NAMES = { 400: "invalid_request", 404: "not_found", 409: "conflict" } as const;

type Run = (admin: ProtocolsAdmin, request: AdminRequest, params: PathParams) => Promise<HttpResponse>;

const ok = (body: unknown): HttpResponse => jsonResponse(200, body);
const created = (body: unknown): HttpResponse => jsonResponse(201, body);

/** A refused operation answers with the StoreError's status and message. */
async function serve(
  run: Run,
  admin: ProtocolsAdmin,
  request: AdminRequest,
  params: PathParams,
): Promise<HttpResponse> {
  try {
    return await run(admin, request, params);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return jsonResponse(error.status, { error: ERROR_NAMES[error.status], message: error.message });
  }
}

// Path parameters arrive undecoded (clientIdOf decodes): one that cannot be decoded names no application.
function route(method: string, template: string, run: Run): (admin: ProtocolsAdmin) => AdminRoute {
  return (admin) =>
    commonRoute(method, template, (request, params) => serve(run, admin, request, params), { decode: false });
}

// PUT replaces: a preset (the default one when none is named) and the knobs given; PATCH changes knobs.
async function replaceDialect(admin: ProtocolsAdmin, { req }: AdminRequest): Promise<HttpResponse> {
  const patch = (await jsonBody(req)) as DialectPatch;
  return ok(admin.updateDialect({ preset: DEFAULT_DIALECT_PRESET, ...patch }));
}

const ROUTES: ((admin: ProtocolsAdmin) => AdminRoute)[] = [
  route("GET", "/users", async (a) => ok({ users: a.listUsers() })),
  route("POST", "/users", async (a, { req }) => created(a.createUser((await jsonBody(req)) as NewUser))),
  route("GET", "/applications", async (a) => ok({ applications: a.listApplications() })),
  route("POST", "/applications", async (a, { req }) =>
    created(a.createApplication((await jsonBody(req)) as NewApplication)),
  ),
  route("POST", "/applications/:clientId/client-token", async (a, _, p) =>
    created(a.issueClientToken(clientIdOf(p))),
  ),
  route("POST", "/protocols", async (a, { req }) =>
    created(a.createProtocol((await jsonBody(req)) as NewProtocol)),
  ),
  route("GET", "/protocols/:idOrUri", async (a, _, p) => {
    const id = decodedSegment(p.idOrUri ?? "");
    const found = id === undefined ? undefined : a.protocol(id);
    return found ? ok(found) : jsonResponse(404, { error: "no such protocol" });
  }),
  route("POST", "/workspaces", async (a, { req }) =>
    created(a.createWorkspace((await jsonBody(req)) as NewWorkspace)),
  ),
  route("GET", "/settings", async (a) => ok(a.settings())),
  route("PATCH", "/settings", async (a, { req }) =>
    ok(a.updateSettings((await jsonBody(req)) as SettingsPatch)),
  ),
  route("GET", "/dialect", async (a) => ok(a.dialect())),
  route("PUT", "/dialect", replaceDialect),
  route("PATCH", "/dialect", async (a, { req }) =>
    ok(a.updateDialect((await jsonBody(req)) as DialectPatch)),
  ),
  route("POST", "/rate-limits/reset", async (a) => {
    a.resetRateLimits();
    return emptyResponse();
  }),
];

export function protocolsAdminRoutes(admin: ProtocolsAdmin): AdminRoutes {
  return ROUTES.map((bind) => bind(admin));
}
