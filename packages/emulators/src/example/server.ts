// The HTTPS emulator of the "example" remote service: tenant API under /api, control API under /_admin.

import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { FaultPlan } from "../common/faults.js";
import { readBearerToken, secretsEqual } from "../common/http.js";
import { startHttpsServer } from "../common/https-server.js";
import { RequestLog } from "../common/request-log.js";
import { requestPipeline } from "../common/request-pipeline.js";
import { type HttpResponse, jsonResponse } from "../common/response.js";
import { ANY_METHOD, matchRoute, type Route, route } from "../common/routes.js";
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

const ROUTES: readonly Route<TenantState & { query: URLSearchParams }>[] = [
  route("GET", `${API_BASE_PATH}/users/search`, ({ users, query }) => searchUsers(users, query)),
  route(ANY_METHOD, `${API_BASE_PATH}/users/search`, () =>
    jsonResponse(405, { error: "method_not_allowed", message: "Use GET" }, { allow: "GET, HEAD" }),
  ),
];

// After the pipeline's log and faults: auth, route, method, validate. Auth comes before routing so
// unauthenticated callers cannot probe paths.
function answerTenantRequest(
  req: IncomingMessage,
  url: URL,
  state: TenantState,
): HttpResponse | Promise<HttpResponse> {
  if (!secretsEqual(readBearerToken(req), state.apiKey)) {
    // Never echo the presented key back: it might be a real credential sent to the wrong place.
    return jsonResponse(
      401,
      { error: "invalid_token", message: "Missing or invalid API key" },
      { "www-authenticate": 'Bearer realm="example", error="invalid_token"' },
    );
  }
  const found = matchRoute(ROUTES, req.method ?? "GET", url.pathname, { headAsGet: true });
  if (found.kind !== "found") return jsonResponse(404, { error: "not_found", message: "No such resource" });
  return found.route.handle({ ...state, query: url.searchParams }, found.params);
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
    handler: requestPipeline({
      admin: { adminSecret, faults, requests },
      answer: (req, url) => answerTenantRequest(req, url, tenant),
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
