// The HTTPS emulator of the "example" remote service: tenant API under /api, control API under /_admin.

import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { FaultPlan } from "../common/faults.js";
import { frontDoor } from "../common/front-door.js";
import { bearerToken, secretsEqual, sendJson } from "../common/http.js";
import { startHttpsServer } from "../common/https-server.js";
import { RequestLog } from "../common/request-log.js";
import { type CertificateAuthority, createCertificateAuthority } from "../common/tls.js";
import { searchUsers } from "./search.js";
import { type ExampleUser, SEED_USERS } from "./users.js";

export const API_BASE_PATH = "/api";

export interface ExampleEmulatorOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  adminSecret?: string;
  ca?: CertificateAuthority;
  users?: ExampleUser[];
}

export interface ExampleEmulator {
  /** Base URL to give the tool server, e.g. "https://127.0.0.1:PORT/api". */
  url: string;
  /** CA certificate PEM; clients trust it via NODE_EXTRA_CA_CERTS. */
  caPem: string;
  apiKey: string;
  adminSecret: string;
  /** Every served non-admin request (admin requests are not counted). */
  requests: RequestLog;
  faults: FaultPlan;
  close(): Promise<void>;
}

interface TenantState {
  apiKey: string;
  users: readonly ExampleUser[];
}

function randomSecret(prefix: string): string {
  return `${prefix}${randomBytes(16).toString("hex")}`;
}

// After the front door's log and faults: auth, route, method, validate. Auth comes before routing so
// unauthenticated callers cannot probe paths.
function handleTenantRequest(req: IncomingMessage, res: ServerResponse, url: URL, state: TenantState): void {
  if (!secretsEqual(bearerToken(req), state.apiKey)) {
    // Never echo the presented key back: it might be a real credential sent to the wrong place.
    sendJson(
      res,
      401,
      { error: "invalid_token", message: "Missing or invalid API key" },
      { "www-authenticate": 'Bearer realm="example", error="invalid_token"' },
    );
    return;
  }
  if (url.pathname !== `${API_BASE_PATH}/users/search`) {
    sendJson(res, 404, { error: "not_found", message: "No such resource" });
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendJson(res, 405, { error: "method_not_allowed", message: "Use GET" }, { allow: "GET, HEAD" });
    return;
  }
  searchUsers(state.users, url.searchParams, res);
}

export async function startExampleEmulator(options: ExampleEmulatorOptions = {}): Promise<ExampleEmulator> {
  const ca = options.ca ?? (await createCertificateAuthority());
  const apiKey = options.apiKey ?? randomSecret("ex_");
  const adminSecret = options.adminSecret ?? randomSecret("exadm_");
  if (adminSecret === apiKey) throw new Error("adminSecret must differ from apiKey");

  const faults = new FaultPlan();
  const requests = new RequestLog();
  const users = (options.users ?? SEED_USERS).map((u) => ({ ...u }));
  const tenant: TenantState = { apiKey, users };

  const server = await startHttpsServer({
    host: options.host,
    port: options.port,
    ca,
    handler: frontDoor({
      admin: { adminSecret, faults, requests },
      serve: (req, res, url) => handleTenantRequest(req, res, url, tenant),
    }),
  });

  return {
    url: `${server.url}${API_BASE_PATH}`,
    caPem: ca.certPem,
    apiKey,
    adminSecret,
    requests,
    faults,
    close: server.close,
  };
}
