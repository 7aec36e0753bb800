// The HTTPS emulator of the protocol repository: OAuth endpoints and API under /api, PDFs under /view,
// control API under /_admin. All state is in memory and starts from a seed.

import { Clock } from "../common/clock.js";
import { FaultPlan } from "../common/faults.js";
import { startHttpsServer } from "../common/https-server.js";
import { FormTickets } from "../common/oauth/form-tickets.js";
import { RequestLog } from "../common/request-log.js";
import { requestPipeline } from "../common/request-pipeline.js";
import { type CertificateAuthority, createCertificateAuthority } from "../common/tls.js";
import { createAdminHandle, type ProtocolsAdmin, parseInput } from "./admin/handle.js";
import { protocolsAdminRoutes } from "./admin/routes.js";
import { PdfCache } from "./api/pdf-render.js";
import { RateLimits } from "./api/rate-limits.js";
import type { ProtocolsContext } from "./context.js";
import { DEFAULT_SEED } from "./demo/protocol-drafts.js";
import { type DemoSetup, loadDemo } from "./demo/setup.js";
import {
  applyDialectPatch,
  DEFAULT_DIALECT_PRESET,
  type DialectPatch,
  type DialectPreset,
  dialectPatchSchema,
  presetDialect,
} from "./dialect.js";
import { newAdminSecret } from "./new-secrets.js";
import { BrowserSessions } from "./oauth/browser-sessions.js";
import { IssuedTokens } from "./oauth/issued-tokens.js";
import { answerRepositoryRequest } from "./routes.js";
import { defaultSettings } from "./settings.js";
import { ProtocolsStore } from "./store.js";

export interface ProtocolsEmulatorOptions {
  port?: number;
  host?: string;
  ca?: CertificateAuthority;
  adminSecret?: string;
  /** Seed of the demo data (default DEFAULT_SEED): the same seed gives the same protocols. */
  seed?: number;
  /** Load the demo users, application and protocols (default true); false starts empty. */
  demo?: boolean;
  /**
   * How answers are worded (dialect.ts): a preset, or a preset and single knobs. Default
   * DEFAULT_DIALECT_PRESET. The admin API (PUT/PATCH /_admin/dialect) changes it while running.
   */
  dialect?: DialectPreset | DialectPatch;
}

export interface ProtocolsEmulator {
  /** Origin to give clients, e.g. "https://127.0.0.1:PORT"; the API is under /api/v3 and /api/v4. */
  url: string;
  /** CA certificate PEM; clients trust it via NODE_EXTRA_CA_CERTS. */
  caPem: string;
  adminSecret: string;
  /** The admin operations in process (the same as the HTTP admin API). */
  admin: ProtocolsAdmin;
  /** Demo credentials, fresh for every start; undefined when started with demo: false. */
  demo: DemoSetup | undefined;
  clock: Clock;
  faults: FaultPlan;
  /** Every served non-admin request (admin requests are not counted). */
  requests: RequestLog;
  close(): Promise<void>;
}

export async function startProtocolsEmulator(
  options: ProtocolsEmulatorOptions = {},
): Promise<ProtocolsEmulator> {
  const ca = options.ca ?? (await createCertificateAuthority());
  const adminSecret = options.adminSecret ?? newAdminSecret();
  const seed = options.seed ?? DEFAULT_SEED;
  const clock = new Clock();
  const faults = new FaultPlan();
  const requests = new RequestLog();
  const settings = defaultSettings();
  const ctx: ProtocolsContext = {
    store: new ProtocolsStore(seed, () => Math.floor(clock.now() / 1000)),
    tokens: new IssuedTokens(clock),
    sessions: new BrowserSessions(clock),
    tickets: new FormTickets(clock),
    settings,
    dialect: startDialect(options.dialect),
    limits: new RateLimits(clock, settings.rateLimits),
    pdfs: new PdfCache(),
    clock,
    origin: "",
  };
  const admin = createAdminHandle(ctx);
  const adminRoutes = protocolsAdminRoutes(admin);
  const demo = options.demo === false ? undefined : loadDemo(admin, ctx.store, seed);

  // Order: log, fault, then the route's own auth, limits and validation. Faults come first so tests can
  // fault a request whatever its credential.
  const handler = requestPipeline({
    admin: { adminSecret, faults, requests, clock },
    adminRoutes,
    answer: (req, url) => answerRepositoryRequest(req, url, ctx),
  });

  const server = await startHttpsServer({ host: options.host, port: options.port, ca, handler });
  ctx.origin = server.url;
  return {
    url: server.url,
    caPem: ca.certPem,
    adminSecret,
    admin,
    demo,
    clock,
    faults,
    requests,
    close: server.close,
  };
}

function startDialect(option: DialectPreset | DialectPatch | undefined) {
  const base = presetDialect(DEFAULT_DIALECT_PRESET);
  if (option === undefined) return base;
  const patch = typeof option === "string" ? { preset: option } : option;
  return applyDialectPatch(base, parseInput(dialectPatchSchema, patch));
}
