// The HTTPS emulator of the lab data platform: tenants at https://HOST:PORT/<tenant> with the API under
// /api/v2, the control API under /_admin (its own secret). Plain HTTP is never served: the listener
// speaks TLS only.

import { randomBytes } from "node:crypto";
import { Clock } from "../common/clock.js";
import { FaultPlan } from "../common/faults.js";
import { type RequestHandler, startHttpsServer } from "../common/https-server.js";
import { RequestLog } from "../common/request-log.js";
import { requestPipeline } from "../common/request-pipeline.js";
import { type HttpResponse, jsonResponse, writeResponse } from "../common/response.js";
import { createRandom } from "../common/seeded-random.js";
import { type CertificateAuthority, createCertificateAuthority } from "../common/tls.js";
import { createAdminHandle, type LabdataAdmin } from "./admin/handle.js";
import { labdataAdminRoutes } from "./admin/routes.js";
import { PageTokens } from "./api/page-tokens.js";
import { type ApiEnvironment, answerApiRequest } from "./api/request.js";
import { OidcVerifier } from "./auth/oidc.js";
import { createDemoData, type DemoData } from "./demo/tenants.js";
import { EmulatorState } from "./state/emulator-state.js";
import { IdFactory } from "./state/ids.js";
import { notifyingAfterCalls } from "./warehouse/notify.js";
import type { TenantWarehouse } from "./warehouse/tenant-warehouse.js";
import { type WarehouseOptions, Warehouses } from "./warehouse/warehouses.js";

export interface LabdataEmulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The CA that signs the server certificate; default: a new throwaway CA. */
  ca?: CertificateAuthority;
  /** Default: random. */
  adminSecret?: string;
  /** Seed of the demo data and of record ids; default 1. */
  seed?: number;
  /** Create the demo tenants "acme" and "globex" (default true). */
  demo?: boolean;
  /** CAs to trust when fetching identity providers' discovery documents and keys (the emulator's own CA is always trusted). */
  oidcTrustedCaPems?: string[];
  /** Share a clock, e.g. with an identity provider; default: a new one. */
  clock?: Clock;
  /** The tenants' data warehouses (real PostgreSQL); each starts on first use unless listed here. */
  warehouse?: WarehouseOptions;
}

/** A tenant's warehouse as tests and the sandbox see it (docs/labdata-emulator.md, "Warehouse"). */
export type WarehouseHandle = Pick<
  TenantWarehouse,
  | "url"
  | "host"
  | "port"
  | "database"
  | "caPem"
  | "engine"
  | "adminConnection"
  | "synced"
  | "expireLogins"
  | "stop"
>;

export interface TenantHandle {
  name: string;
  /** e.g. "https://127.0.0.1:8443/acme". */
  baseUrl: string;
  /** `${baseUrl}/api/v2`. */
  apiUrl: string;
}

export interface LabdataEmulator {
  /** The origin, e.g. "https://127.0.0.1:8443"; tenants live below it. */
  url: string;
  /** CA certificate PEM; clients trust it via NODE_EXTRA_CA_CERTS. */
  caPem: string;
  adminSecret: string;
  /** A tenant's URLs; throws for an unknown tenant. */
  tenant(name: string): TenantHandle;
  /** Every operation of the admin API, in process. */
  admin: LabdataAdmin;
  /** Demo credentials and ids, or null when started with demo: false. */
  demo: DemoData | null;
  clock: Clock;
  faults: FaultPlan;
  /** Every tenant API request (admin requests are not logged). */
  requests: RequestLog;
  /** The tenant's warehouse, started on the first call (about a second and a half). */
  warehouse(tenant: string): Promise<WarehouseHandle>;
  close(): Promise<void>;
}

const STARTING_UP: HttpResponse = jsonResponse(503, {
  error: { message: "Starting up", type: "server_error", userMessage: "Try again shortly." },
});

export async function startLabdataEmulator(options: LabdataEmulatorOptions = {}): Promise<LabdataEmulator> {
  const ca = options.ca ?? (await createCertificateAuthority());
  const adminSecret = options.adminSecret ?? `ldadm_${randomBytes(24).toString("base64url")}`;
  if (!/^\S{16,}$/.test(adminSecret))
    throw new Error("adminSecret must be at least 16 characters, no spaces");
  const seed = options.seed ?? 1;
  const clock = options.clock ?? new Clock();
  const faults = new FaultPlan();
  const requests = new RequestLog();

  // The origin is known once listening; requests arriving before the state exists get a 503.
  let handle: RequestHandler | undefined;
  const server = await startHttpsServer({
    host: options.host,
    port: options.port,
    ca,
    handler: (req, res, url) => (handle ? handle(req, res, url) : writeResponse(res, STARTING_UP)),
  });

  const state = new EmulatorState(server.url, clock, new IdFactory(createRandom(seed ^ 0x1d5eed)));
  const warehouses = new Warehouses(state, ca, clock, options.warehouse);
  // Whatever the admin API changes reaches the running warehouses with their next sync.
  const admin = notifyingAfterCalls(createAdminHandle(state, faults, requests), () => warehouses.changed());
  const adminRoutes = labdataAdminRoutes(admin);
  const env: ApiEnvironment = {
    state,
    clock,
    ids: state.ids,
    oidc: new OidcVerifier([...(options.oidcTrustedCaPems ?? []), ca.certPem], clock),
    pageTokens: new PageTokens(),
    warehouses,
  };
  handle = requestPipeline({
    admin: { adminSecret, faults, requests, clock },
    adminRoutes,
    answer: async (req, url) => {
      const response = await answerApiRequest(req, url, env);
      if (writes(req.method, url.pathname)) warehouses.changed();
      return response;
    },
  });

  let demo: DemoData | null = null;
  try {
    if (options.demo ?? true) demo = createDemoData(admin, state, seed);
    await Promise.all((options.warehouse?.tenants ?? []).map((name) => warehouses.forTenant(name)));
  } catch (error) {
    await warehouses.close();
    await server.close();
    throw error;
  }

  return {
    url: server.url,
    caPem: ca.certPem,
    adminSecret,
    tenant(name) {
      const tenant = state.tenants.get(name);
      if (!tenant) throw new Error(`no tenant '${name}'`);
      return { name, baseUrl: tenant.baseUrl, apiUrl: `${tenant.baseUrl}/api/v2` };
    },
    admin,
    demo,
    clock,
    faults,
    requests,
    warehouse: (name) => warehouses.forTenant(name),
    close: async () => {
      await Promise.all([warehouses.close(), server.close()]);
    },
  };
}

// Requests that may change the tenant: any but GET, and a task poll (a bulk create commits at one).
// Minting warehouse credentials changes no table.
function writes(method: string | undefined, path: string): boolean {
  if (path.endsWith("/warehouse-credentials")) return false;
  return (method ?? "GET") !== "GET" || path.includes("/api/v2/tasks/");
}
