// The HTTP admin API below /_admin (the admin secret is checked by the common handler first): each
// route reads its input and calls the same function as the in-process handle.
import { z } from "zod";
import type { AdminRequest, AdminRoute, AdminRoutes } from "../../common/admin.js";
import { readJsonBody } from "../../common/json-body.js";
import type { PathParams } from "../../common/path-pattern.js";
import { emptyResponse, type HttpResponse, jsonResponse } from "../../common/response.js";
import { route as commonRoute } from "../../common/routes.js";
import { AdminError, invalid } from "./admin-error.js";
import type { LabdataAdmin } from "./handle.js";

interface Input {
  params: PathParams;
  body: unknown;
  query: URLSearchParams;
}

type Outcome = { status: number; body?: unknown };

type Run = (admin: LabdataAdmin, input: Input) => Outcome;

const ok = (body: unknown): Outcome => ({ status: 200, body });
const created = (body: unknown): Outcome => ({ status: 201, body });
const noContent = (): Outcome => ({ status: 204 });
const p = (input: Input, name: string): string => input.params[name] ?? "";
const t = (input: Input): string => p(input, "tenant");

function limitOf(query: URLSearchParams): number | undefined {
  const raw = query.get("limit");
  if (raw === null) return undefined;
  if (!/^\d{1,6}$/.test(raw)) throw invalid("limit must be a whole number");
  return Number(raw);
}

const HAS_BODY = new Set(["POST", "PUT", "PATCH"]);

// Bodies of a thousand generated sequences' worth of input stay far below this.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function serve(
  admin: LabdataAdmin,
  method: string,
  run: Run,
  request: AdminRequest,
  params: PathParams,
): Promise<HttpResponse> {
  let body: unknown;
  if (HAS_BODY.has(method)) {
    const read = await readJsonBody(request.req, z.unknown(), MAX_BODY_BYTES);
    if (!read.ok) return jsonResponse(read.status, { error: "invalid_request", message: read.message });
    body = read.value ?? {};
  }
  try {
    const outcome = run(admin, { params, body, query: request.url.searchParams });
    if (outcome.status === 204) return emptyResponse();
    return jsonResponse(outcome.status, outcome.body);
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    return jsonResponse(error.status, { error: error.code, message: error.message });
  }
}

/** One admin route: reads the JSON body of POST, PUT and PATCH, runs the operation, renders AdminError. */
function route(method: string, template: string, run: Run): (admin: LabdataAdmin) => AdminRoute {
  return (admin) =>
    commonRoute(method, template, (request, params) => serve(admin, method, run, request, params));
}

const T = "/tenants/:tenant";

// Bodies go to the handle unchecked (`as never`): every handle function validates its input with zod.

const ROUTES: ((admin: LabdataAdmin) => AdminRoute)[] = [
  route("GET", "/tenants", (a) => ok({ tenants: a.listTenants() })),
  route("POST", "/tenants", (a, i) => created(a.createTenant(i.body as never))),
  route("GET", `${T}/settings`, (a, i) => ok(a.getSettings(t(i)))),
  route("PATCH", `${T}/settings`, (a, i) => ok(a.updateSettings(t(i), i.body as never))),

  route("GET", `${T}/users`, (a, i) => ok({ users: a.listUsers(t(i)) })),
  route("POST", `${T}/users`, (a, i) => created(a.createUser(t(i), i.body as never))),
  route("PATCH", `${T}/users/:userId`, (a, i) => ok(a.updateUser(t(i), p(i, "userId"), i.body as never))),
  route("GET", `${T}/api-keys`, (a, i) =>
    ok({ apiKeys: a.listApiKeys(t(i), i.query.get("userId") ?? undefined) }),
  ),
  route("POST", `${T}/api-keys`, (a, i) => created(a.createApiKey(t(i), i.body as never))),
  route("DELETE", `${T}/api-keys/:keyId`, (a, i) => {
    a.deleteApiKey(t(i), p(i, "keyId"));
    return noContent();
  }),

  route("GET", `${T}/apps`, (a, i) => ok({ apps: a.listApps(t(i)) })),
  route("POST", `${T}/apps`, (a, i) => created(a.createApp(t(i), i.body as never))),
  route("POST", `${T}/apps/:appId/archive`, (a, i) => ok(a.archiveApp(t(i), p(i, "appId")))),
  route("POST", `${T}/apps/:appId/unarchive`, (a, i) => ok(a.unarchiveApp(t(i), p(i, "appId")))),
  route("POST", `${T}/apps/:appId/secrets`, (a, i) => created(a.addAppSecret(t(i), p(i, "appId")))),
  route("DELETE", `${T}/apps/:appId/secrets/:secretId`, (a, i) => {
    a.deleteAppSecret(t(i), p(i, "appId"), p(i, "secretId"));
    return noContent();
  }),

  route("GET", `${T}/organizations`, (a, i) => ok({ organizations: a.listOrganizations(t(i)) })),
  route("POST", `${T}/organizations`, (a, i) => created(a.createOrganization(t(i), i.body as never))),
  route("GET", `${T}/teams`, (a, i) => ok({ teams: a.listTeams(t(i)) })),
  route("POST", `${T}/teams`, (a, i) => created(a.createTeam(t(i), i.body as never))),
  route("GET", `${T}/projects`, (a, i) => ok({ projects: a.listProjects(t(i)) })),
  route("POST", `${T}/projects`, (a, i) => created(a.createProject(t(i), i.body as never))),
  route("GET", `${T}/folders`, (a, i) => ok({ folders: a.listFolders(t(i)) })),
  route("POST", `${T}/folders`, (a, i) => created(a.createFolder(t(i), i.body as never))),

  route("GET", `${T}/memberships`, (a, i) => ok({ memberships: a.listMemberships(t(i)) })),
  route("PUT", `${T}/memberships`, (a, i) => ok(a.setMembership(t(i), i.body as never))),
  route("DELETE", `${T}/memberships/:userId/:resourceId`, (a, i) => {
    a.removeMembership(t(i), p(i, "userId"), p(i, "resourceId"));
    return noContent();
  }),
  route("GET", `${T}/app-grants`, (a, i) => ok({ appGrants: a.listAppGrants(t(i)) })),
  route("PUT", `${T}/app-grants`, (a, i) => ok(a.setAppGrant(t(i), i.body as never))),
  route("DELETE", `${T}/app-grants/:appId/:resourceId`, (a, i) => {
    a.removeAppGrant(t(i), p(i, "appId"), p(i, "resourceId"));
    return noContent();
  }),

  route("POST", `${T}/dna-sequences`, (a, i) => created(a.addDnaSequence(t(i), i.body as never))),
  route("POST", `${T}/dna-sequences/seed`, (a, i) => created(a.seedDnaSequences(t(i), i.body as never))),
  route("POST", `${T}/dna-sequences/:id/archive`, (a, i) =>
    ok(a.archiveDnaSequence(t(i), p(i, "id"), i.body as never)),
  ),
  route("POST", `${T}/dna-sequences/:id/unarchive`, (a, i) => ok(a.unarchiveDnaSequence(t(i), p(i, "id")))),

  route("GET", `${T}/audit-log`, (a, i) => {
    const entries = a.auditLog(t(i), { limit: limitOf(i.query) });
    return ok({ count: entries.length, entries });
  }),
  route("DELETE", `${T}/audit-log`, (a, i) => {
    a.clearAuditLog(t(i));
    return noContent();
  }),
];

export function labdataAdminRoutes(admin: LabdataAdmin): AdminRoutes {
  return ROUTES.map((bind) => bind(admin));
}
