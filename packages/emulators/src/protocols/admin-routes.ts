// The protocols emulator's own admin endpoints, below the shared ones (/_admin/health, /faults,
// /requests, /clock). Each maps to one operation of the in-process admin handle; JSON in and out.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdminRoutes } from "../common/admin.js";
import { BodyTooLargeError, readBody, sendEmpty, sendJson } from "../common/http.js";
import type { NewApplication, NewProtocol, NewUser, ProtocolsAdmin } from "./admin-handle.js";
import { DEFAULT_DIALECT_PRESET, type DialectPatch } from "./dialect.js";
import type { SettingsPatch } from "./settings.js";
import { StoreError } from "./store.js";

const CLIENT_TOKEN_ROUTE = /^\/applications\/([^/]+)\/client-token$/;

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

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new StoreError(404, "no application with this clientId");
  }
}

const ERROR_NAMES = { 400: "invalid_request", 404: "not_found", 409: "conflict" } as const;

function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendJson(res, 405, { error: "method_not_allowed", message: `Use ${allow}` }, { allow });
}

async function route(
  admin: ProtocolsAdmin,
  path: string,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const clientToken = CLIENT_TOKEN_ROUTE.exec(path);
  if (clientToken) {
    if (method !== "POST") methodNotAllowed(res, "POST");
    else sendJson(res, 201, admin.issueClientToken(decodedSegment(clientToken[1] ?? "")));
    return true;
  }
  switch (path) {
    case "/users":
      if (method === "GET") sendJson(res, 200, { users: admin.listUsers() });
      else if (method === "POST") sendJson(res, 201, admin.createUser((await jsonBody(req)) as NewUser));
      else methodNotAllowed(res, "GET, POST");
      return true;
    case "/applications":
      if (method === "GET") sendJson(res, 200, { applications: admin.listApplications() });
      else if (method === "POST")
        sendJson(res, 201, admin.createApplication((await jsonBody(req)) as NewApplication));
      else methodNotAllowed(res, "GET, POST");
      return true;
    case "/protocols":
      if (method === "POST") sendJson(res, 201, admin.createProtocol((await jsonBody(req)) as NewProtocol));
      else methodNotAllowed(res, "POST");
      return true;
    case "/settings":
      if (method === "GET") sendJson(res, 200, admin.settings());
      else if (method === "PATCH")
        sendJson(res, 200, admin.updateSettings((await jsonBody(req)) as SettingsPatch));
      else methodNotAllowed(res, "GET, PATCH");
      return true;
    case "/dialect":
      if (method === "GET") sendJson(res, 200, admin.dialect());
      else if (method === "PUT" || method === "PATCH") {
        const patch = (await jsonBody(req)) as DialectPatch;
        // PUT replaces: a preset (the default one when none is named) and the knobs given; PATCH changes knobs.
        const replace = { preset: DEFAULT_DIALECT_PRESET, ...patch };
        sendJson(res, 200, admin.updateDialect(method === "PUT" ? replace : patch));
      } else methodNotAllowed(res, "GET, PUT, PATCH");
      return true;
    case "/rate-limits/reset":
      if (method === "POST") {
        admin.resetRateLimits();
        sendEmpty(res);
      } else methodNotAllowed(res, "POST");
      return true;
    default:
      return false;
  }
}

export function protocolsAdminRoutes(admin: ProtocolsAdmin): AdminRoutes {
  return async (path, method, req, res) => {
    try {
      return await route(admin, path, method, req, res);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      sendJson(res, error.status, { error: ERROR_NAMES[error.status], message: error.message });
      return true;
    }
  };
}
