// Health and readiness of an HTTP replica, for load balancers and orchestrators: GET /healthz answers
// while the process serves, GET /readyz whether it should be given work. Probes come from other hosts
// with no token, so these answer before the Host and token checks, and say nothing secret.
import type { IncomingMessage, ServerResponse } from "node:http";

export interface Readiness {
  ready: boolean;
  /** Why not ready; shown to anyone who can reach the port, so no secret and no credentialed URL. */
  reason?: string;
}

export type ReadinessCheck = () => Promise<Readiness>;

export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";

/** A readiness check that hangs must not hang the probe. */
const READINESS_TIMEOUT_MS = 2_000;

/** Whether the request is a probe (its path is /healthz or /readyz), whatever its method. */
export function isProbe(req: IncomingMessage): boolean {
  const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
  return pathname === HEALTH_PATH || pathname === READY_PATH;
}

/** Answers a probe: GET or HEAD only, never cached. */
export async function answerProbe(
  req: IncomingMessage,
  res: ServerResponse,
  readiness: ReadinessCheck | undefined,
): Promise<void> {
  res.setHeader("cache-control", "no-store");
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    return send(req, res, 405, { error: "Method not allowed" });
  }
  const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
  if (pathname === HEALTH_PATH) return send(req, res, 200, { status: "ok" });
  const state = await checkReadiness(readiness);
  if (state.ready) return send(req, res, 200, { status: "ready" });
  return send(req, res, 503, { status: "not ready", reason: state.reason ?? "not ready" });
}

async function checkReadiness(readiness: ReadinessCheck | undefined): Promise<Readiness> {
  if (!readiness) return { ready: true };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: "the readiness check did not answer in time" }),
      READINESS_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      readiness().catch((): Readiness => ({ ready: false, reason: "the readiness check failed" })),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
}
