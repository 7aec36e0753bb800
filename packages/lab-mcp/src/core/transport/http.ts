// Streamable HTTP on loopback, guarded against DNS rebinding (Host and Origin checks) and, when
// MCP_HTTP_TOKEN is set, by a bearer token; in team mode every request carries a person's access token.
// Serves the 2026-07-28 protocol (stateless: any request to any process) and 2025-11-25 clients
// (initialize, and an MCP session held by this process). GET /healthz and /readyz answer load
// balancers' probes (ops/health.ts); GET /metrics a Prometheus scraper (ops/metrics-endpoint.ts).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AuthInfo, createMcpHandler, isInitializeRequest } from "@modelcontextprotocol/server";
import { ResourceServer, type ResourceServerSettings } from "../auth/resource-server.js";
import type { ClientSession, Person } from "../caller.js";
import { writeEventLine } from "../ops/event-log.js";
import { answerProbe, isProbe, type ReadinessCheck } from "../ops/health.js";
import { startMetrics } from "../ops/metrics.js";
import { answerMetrics, isMetricsRequest } from "../ops/metrics-endpoint.js";
import type { HttpRoute } from "../route.js";
import type { ServerFactory } from "../server/factory.js";
import { statelessCallers } from "./callers.js";
import { isModernPost } from "./era.js";
import { allowedHostsOf, bearerMatches, digest, hostAllowed, hostForUrl, isLocalOrigin } from "./guards.js";
import { type ListenAddress, serveMetricsListener } from "./metrics-listener.js";
import { readJsonBody, sendJson, sendRpcError, sendWebResponse } from "./replies.js";
import type { RunningTransport } from "./running.js";
import { type Session, SessionTable } from "./sessions.js";
import { type WebExchange, webExchange, writeWebResponse } from "./web-exchange.js";

export interface HttpOptions {
  host: string;
  port: number;
  /** When set, every request must carry "Authorization: Bearer <token>". */
  token?: string;
  /**
   * A bearer token GET /metrics accepts besides `token`. With neither, this port never serves /metrics
   * (a reverse proxy may publish it): `metricsListen` does, on loopback.
   */
  metricsToken?: string;
  /** MCP_METRICS_LISTEN: a loopback listener of its own for /metrics without a token. */
  metricsListen?: ListenAddress;
  /** Path of the MCP endpoint. */
  path?: string;
  /**
   * A session with no request for this long and no open exchange is closed: clients that vanish
   * without DELETE must not hold memory forever.
   */
  sessionIdleMs?: number;
  /**
   * The most sessions held at once. A new client takes the place of the least recently used idle
   * one; when none is idle it is refused.
   */
  maxSessions?: number;
  /** Whether this replica should be given work, for GET /readyz (default: always ready). */
  readiness?: ReadinessCheck;
  /** Team mode: every request carries a person's access token from this authorization server. */
  auth?: ResourceServerSettings;
  /** A service's own GET pages (e.g. an OAuth callback), served after the Host check, before the bearer one. */
  routes?: HttpRoute[];
}

const DEFAULT_MAX_SESSIONS = 100;

/**
 * Serves many clients over streamable HTTP: a 2026-07-28 request by a fresh McpServer of its own
 * (stateless), a 2025-11-25 client by one McpServer per MCP session (the SDK's stateful pattern).
 */
export async function serveHttp(factory: ServerFactory, options: HttpOptions): Promise<RunningTransport> {
  const path = options.path ?? "/mcp";
  // Counted from the first request on: /metrics can be read from here.
  await startMetrics();
  const sessions = new SessionTable(
    factory,
    options.sessionIdleMs ?? 30 * 60 * 1000,
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
  );
  const expectedToken = options.token ? digest(options.token) : undefined;
  // In team mode the caller is the person the request's access token names, on every replica alike.
  const resourceServer = options.auth ? new ResourceServer(options.auth) : undefined;
  /** The Host names answered to: known once the port is (MCP_PORT 0 picks one). */
  const hosts = { allowed: new Set<string>() };
  const modern = statelessHandler(factory, resourceServer, expectedToken !== undefined);
  const metrics = metricsGuard(options);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    // Load balancers and orchestrators probe by IP with no token; a page of another origin may not.
    const origin = req.headers.origin;
    const fromHere = origin === undefined || isLocalOrigin(origin, options.host);
    if (isProbe(req) && fromHere) return answerProbe(req, res, options.readiness);
    if (isMetricsRequest(req) && fromHere) return metrics(req, res);
    if (resourceServer?.metadataPaths.includes(url.pathname)) {
      // Public, for any client (and a browser-based one) to find the authorization server.
      res.setHeader("access-control-allow-origin", "*");
      return sendJson(res, 200, resourceServer.metadata());
    }
    if (!hostAllowed(req, hosts.allowed)) {
      return sendJson(res, 403, { error: "Forbidden: the Host header is not one this server answers to" });
    }
    const route = routeOf(options.routes, req, url.pathname);
    if (route) return route.handle(req, res, url);
    if (origin !== undefined && !isLocalOrigin(origin, options.host)) {
      return sendJson(res, 403, { error: "Forbidden: requests from this Origin are not allowed" });
    }
    if (expectedToken && !bearerMatches(req.headers.authorization, expectedToken)) {
      res.setHeader("www-authenticate", 'Bearer realm="mcp"');
      return sendJson(res, 401, { error: "Unauthorized: send 'Authorization: Bearer <MCP_HTTP_TOKEN>'" });
    }
    if (url.pathname !== path) return sendJson(res, 404, { error: `Not found: the MCP endpoint is ${path}` });
    let authInfo: AuthInfo | undefined;
    if (resourceServer) {
      authInfo = await modern.verify(req, res);
      if (!authInfo) return;
    }
    return answerMcp(req, res, authInfo);
  };

  /** An MCP request, its caller known: to its session, to a new session, or stateless. */
  const answerMcp = async (req: IncomingMessage, res: ServerResponse, authInfo: AuthInfo | undefined) => {
    const person = authInfo && resourceServer?.personOf(authInfo);
    const sessionId = req.headers["mcp-session-id"];
    const existing = sessions.get(sessionId);
    if (existing && !sessions.enter(existing, person, res)) {
      return sendRpcError(res, 403, "Forbidden: this MCP session belongs to another person");
    }
    if (req.method === "POST") return answerPost(req, res, existing, authInfo, person);
    if (req.method === "GET" || req.method === "DELETE") {
      if (!existing)
        return sendRpcError(res, sessionId ? 404 : 400, "Session not found: initialize a new session");
      return existing.transport.handleRequest(req, res);
    }
    res.setHeader("allow", "GET, POST, DELETE");
    return sendJson(res, 405, { error: "Method not allowed" });
  };

  const answerPost = async (
    req: IncomingMessage,
    res: ServerResponse,
    existing: Session | undefined,
    authInfo: AuthInfo | undefined,
    person: Person | undefined,
  ) => {
    const body = await readJsonBody(req, res);
    if (body === undefined) return;
    if (!existing) {
      // One web Request per exchange, for the SDK's classification and its modern handler alike.
      const exchange = webExchange(req, res);
      if (await isModernPost(exchange.request, body)) return modern.handle(exchange, res, body, authInfo);
    }
    if (existing) return existing.transport.handleRequest(req, res, body);
    if (req.headers["mcp-session-id"] !== undefined)
      return sendRpcError(res, 404, "Session not found: initialize a new session");
    if (!isInitializeRequest(body))
      return sendRpcError(res, 400, "Bad request: no session; send initialize first");
    const noRoom = await sessions.open(person, req, res, body);
    if (noRoom) {
      res.setHeader("retry-after", "60");
      return sendRpcError(
        res,
        503,
        noRoom === "share"
          ? `Too many sessions: you hold ${sessions.personShare}, your share of the ${sessions.maxSessions} (MCP_MAX_SESSIONS), and all are in use; close one or try again later`
          : `Too many sessions: all ${sessions.maxSessions} are in use (MCP_MAX_SESSIONS); try again later`,
      );
    }
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      writeEventLine("http_request_failed", error instanceof Error ? error.name : String(error));
      if (!res.headersSent) sendRpcError(res, 500, "Internal server error");
      else res.end();
    });
  });
  await listen(http, options.host, options.port);
  const port = (http.address() as AddressInfo).port;
  const metricsListener = options.metricsListen
    ? await serveMetricsListener(options.metricsListen).catch(async (error: unknown) => {
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        throw error;
      })
    : undefined;
  sessions.sweep();
  hosts.allowed = allowedHostsOf(options.host, port, resourceServer?.resource);

  return {
    url: `http://${hostForUrl(options.host)}:${port}${path}`,
    async close() {
      await metricsListener?.close();
      await sessions.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * The stateless (2026-07-28) side: the SDK's handler, a fresh server per request for the request's
 * caller, and in team mode the verification that names the person. The verified token travels as the
 * SDK's AuthInfo, handed to the handler with the request and back to the factory, which reads the
 * person from it (its claims, in `extra`): nothing kept on the side.
 */
function statelessHandler(
  factory: ServerFactory,
  resourceServer: ResourceServer | undefined,
  tokenRequired: boolean,
) {
  const callers = statelessCallers(tokenRequired);
  const callerOf = (authInfo: AuthInfo | undefined): ClientSession => {
    if (!resourceServer) return callers.unnamed();
    // Cannot happen (every team-mode request is verified first); never served as someone else.
    if (!authInfo) throw new Error("a team-mode request reached the MCP handler unverified");
    return callers.person(resourceServer.personOf(authInfo));
  };
  const handler = createMcpHandler(({ authInfo }) => factory(callerOf(authInfo)), {
    legacy: "reject",
    onerror: (error) => writeEventLine("mcp_request_refused", error.message),
  });
  return {
    /** Answers a 2026-07-28 request, its body already read and parsed, with its verified token in team mode. */
    async handle(
      exchange: WebExchange,
      res: ServerResponse,
      body: unknown,
      authInfo: AuthInfo | undefined,
    ): Promise<void> {
      const response = await handler.fetch(exchange.request, {
        ...(authInfo !== undefined && { authInfo }),
        parsedBody: body,
      });
      await writeWebResponse(res, response, exchange);
    },
    /** The verified token of a team-mode request, or undefined once the bearer challenge is answered. */
    async verify(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | undefined> {
      if (!resourceServer) return undefined;
      try {
        return await resourceServer.verify(req.headers.authorization);
      } catch (error) {
        await sendWebResponse(res, resourceServer.challenge(error));
        return undefined;
      }
    },
  };
}

/**
 * GET /metrics. Scrapers reach replicas by IP, so a token (either) skips the Host check; without
 * one, this port never serves it: a same-host reverse proxy that forwards Host would publish it
 * (MCP_METRICS_LISTEN serves it on loopback instead, metrics-listener.ts).
 */
function metricsGuard(options: HttpOptions) {
  const metricsTokens = [options.token, options.metricsToken].flatMap((token) =>
    token ? [digest(token)] : [],
  );
  return (req: IncomingMessage, res: ServerResponse) => {
    if (metricsTokens.length > 0) {
      if (!metricsTokens.some((token) => bearerMatches(req.headers.authorization, token))) {
        res.setHeader("www-authenticate", 'Bearer realm="metrics"');
        return sendJson(res, 401, {
          error: "Unauthorized: send 'Authorization: Bearer <MCP_METRICS_TOKEN or MCP_HTTP_TOKEN>'",
        });
      }
    } else {
      return sendJson(res, 403, {
        error:
          "Forbidden: without MCP_METRICS_TOKEN, /metrics is not served on this port; set MCP_METRICS_LISTEN to a loopback host:port for a listener of its own",
      });
    }
    return answerMetrics(req, res);
  };
}

function routeOf(
  routes: HttpRoute[] | undefined,
  req: IncomingMessage,
  pathname: string,
): HttpRoute | undefined {
  return routes?.find(
    (route) =>
      (route.methods ?? ["GET", "HEAD"]).includes(req.method ?? "") &&
      (route.prefix ? pathname.startsWith(route.path) : pathname === route.path),
  );
}

function listen(http: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
}
