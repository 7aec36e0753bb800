// The two ways a client reaches a server: stdio (default) and streamable HTTP on loopback, guarded
// against DNS rebinding (Host and Origin checks) and, when MCP_HTTP_TOKEN is set, by a bearer token.
// Both serve the 2026-07-28 protocol (stateless: any request to any process) and 2025-11-25 clients
// (initialize, and over HTTP an MCP session held by this process). GET /healthz and /readyz answer
// load balancers' probes (health.ts); GET /metrics a Prometheus scraper (metrics-endpoint.ts).
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpServer,
} from "@modelcontextprotocol/server";
import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import { callerOf, personOf, ResourceServer, type ResourceServerSettings } from "./auth/resource-server.js";
import type { ClientSession, Person } from "./context.js";
import { answerProbe, isProbe, type ReadinessCheck } from "./health.js";
import { isLoopbackHost } from "./loopback.js";
import { answerMetrics, isMetricsRequest } from "./metrics-endpoint.js";
import type { HttpRoute, ServerFactory } from "./server.js";

export interface RunningTransport {
  /** For HTTP: the MCP endpoint URL. */
  url?: string;
  close(): Promise<void>;
}

/** The one client of stdio: the user who started the server. */
const STDIO_CLIENT: ClientSession = { caller: "stdio", isolated: false };

/** Serves one client over stdin/stdout, in whichever era it opens. stdout carries nothing but JSON-RPC. */
export async function serveStdio(factory: ServerFactory): Promise<RunningTransport> {
  // Anything printed by mistake must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  // The client closing its end of our stdout (EPIPE) is the end of the session, not a crash.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") process.exit(0);
    throw error;
  });
  const handle = serveSdkStdio(() => factory(STDIO_CLIENT));
  return { close: () => handle.close() };
}

export interface HttpOptions {
  host: string;
  port: number;
  /** When set, every request must carry "Authorization: Bearer <token>". */
  token?: string;
  /**
   * A bearer token GET /metrics accepts besides `token`. With neither, /metrics answers only on a
   * loopback host, to loopback Host names.
   */
  metricsToken?: string;
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

/**
 * The person of a 2025-11-25 session: who opened it, for the session's life, with the newest access
 * token they sent on it (for a remote that trusts the same identity provider).
 */
class SessionPerson implements Person {
  readonly subject: string;
  readonly email?: string;
  #accessToken: string;

  constructor(person: Person) {
    this.subject = person.subject;
    if (person.email !== undefined) this.email = person.email;
    this.#accessToken = person.accessToken;
  }

  get accessToken(): string {
    return this.#accessToken;
  }

  renew(accessToken: string): void {
    this.#accessToken = accessToken;
  }
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  /** Team mode: the person who opened it; only their tokens may use it. */
  person?: SessionPerson;
  /** When the session's last exchange began or ended. */
  lastSeen: number;
  /** Exchanges still open: calls in flight (answered on their own stream) and GET event streams. */
  openExchanges: number;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 100;
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Serves many clients over streamable HTTP: a 2026-07-28 request by a fresh McpServer of its own
 * (stateless), a 2025-11-25 client by one McpServer per MCP session (the SDK's stateful pattern).
 */
export async function serveHttp(factory: ServerFactory, options: HttpOptions): Promise<RunningTransport> {
  const path = options.path ?? "/mcp";
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? 30 * 60 * 1000;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  /** Initializations under way, not yet in `sessions`: they count against the cap too. */
  let starting = 0;
  const expectedToken = options.token ? digest(options.token) : undefined;
  const metricsTokens = [options.token, options.metricsToken].flatMap((token) =>
    token ? [digest(token)] : [],
  );
  let allowedHosts: Set<string> = new Set();
  // Stateless requests have no session: the caller is who the bearer token says. With
  // MCP_HTTP_TOKEN that is its one holder, whose asks and supplied credentials last across requests;
  // without a token nobody is known, and what a request supplies serves that request alone.
  const tokenHolder: ClientSession = { caller: "token-holder", isolated: true };
  // In team mode the caller is the person the request's access token names, on every replica alike.
  const resourceServer = options.auth ? new ResourceServer(options.auth) : undefined;
  const modernClient = (authInfo: AuthInfo | undefined): ClientSession => {
    if (resourceServer && authInfo) {
      const person = personOf(authInfo, resourceServer.settings.issuer);
      return { caller: callerOf(person), isolated: true, person };
    }
    return expectedToken ? tokenHolder : { caller: "anonymous", isolated: true, thisCallOnly: true };
  };
  const modern = toNodeHandler(
    createMcpHandler(({ authInfo }) => factory(modernClient(authInfo)), {
      legacy: "reject",
      onerror: (error) => process.stderr.write(`MCP request refused: ${error.message}\n`),
    }),
  );

  const routeOf = (req: IncomingMessage) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    return options.routes?.find(
      (route) =>
        (route.methods ?? ["GET", "HEAD"]).includes(req.method ?? "") &&
        (route.prefix ? pathname.startsWith(route.path) : pathname === route.path),
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Load balancers and orchestrators probe by IP with no token; a page of another origin may not.
    const origin = req.headers.origin;
    if (isProbe(req) && (origin === undefined || isLocalOrigin(origin, options.host))) {
      return answerProbe(req, res, options.readiness);
    }
    if (isMetricsRequest(req) && (origin === undefined || isLocalOrigin(origin, options.host))) {
      return serveMetrics(req, res);
    }
    if (resourceServer?.metadataPaths.includes(new URL(req.url ?? "/", "http://localhost").pathname)) {
      // Public, for any client (and a browser-based one) to find the authorization server.
      res.setHeader("access-control-allow-origin", "*");
      return sendJson(res, 200, resourceServer.metadata());
    }
    if (!allowedHosts.has((req.headers.host ?? "").toLowerCase())) {
      return sendJson(res, 403, { error: "Forbidden: the Host header is not one this server answers to" });
    }
    const route = routeOf(req);
    if (route) return route.handle(req, res, new URL(req.url ?? "/", "http://localhost"));
    if (origin !== undefined && !isLocalOrigin(origin, options.host)) {
      return sendJson(res, 403, { error: "Forbidden: requests from this Origin are not allowed" });
    }
    if (expectedToken && !bearerMatches(req.headers.authorization, expectedToken)) {
      res.setHeader("www-authenticate", 'Bearer realm="mcp"');
      return sendJson(res, 401, { error: "Unauthorized: send 'Authorization: Bearer <MCP_HTTP_TOKEN>'" });
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== path) return sendJson(res, 404, { error: `Not found: the MCP endpoint is ${path}` });

    let person: Person | undefined;
    if (resourceServer) {
      let authInfo: AuthInfo;
      try {
        authInfo = await resourceServer.verify(req.headers.authorization);
      } catch (error) {
        return sendWebResponse(res, resourceServer.challenge(error));
      }
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
      person = personOf(authInfo, resourceServer.settings.issuer);
    }

    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing?.person && existing.person.subject !== person?.subject) {
      return sendRpcError(res, 403, "Forbidden: this MCP session belongs to another person");
    }
    // The session's person keeps their newest token (for a remote that trusts the same provider).
    if (existing?.person && person) existing.person.renew(person.accessToken);
    if (existing) holdOpen(existing, res);
    if (req.method === "POST") {
      const body = await readJsonBody(req, res);
      if (body === undefined) return;
      if (!existing && !(await isLegacyRequest(await toWebRequest(req, body), body))) {
        return modern(req, res, body);
      }
      if (existing) return existing.transport.handleRequest(req, res, body);
      if (sessionId !== undefined)
        return sendRpcError(res, 404, "Session not found: initialize a new session");
      if (!isInitializeRequest(body))
        return sendRpcError(res, 400, "Bad request: no session; send initialize first");
      if (!makeRoom()) {
        res.setHeader("retry-after", "60");
        return sendRpcError(
          res,
          503,
          `Too many sessions: all ${maxSessions} are in use (MCP_MAX_SESSIONS); try again later`,
        );
      }
      starting++;
      try {
        const sessionPerson = person ? new SessionPerson(person) : undefined;
        const server = factory({ caller: `session:${randomUUID()}`, isolated: true, person: sessionPerson });
        const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, {
              transport,
              server,
              person: sessionPerson,
              lastSeen: Date.now(),
              openExchanges: 0,
            });
          },
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
          void server.close();
        };
        await server.connect(transport);
        return await transport.handleRequest(req, res, body);
      } finally {
        starting--;
      }
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (!existing)
        return sendRpcError(res, sessionId ? 404 : 400, "Session not found: initialize a new session");
      return existing.transport.handleRequest(req, res);
    }
    res.setHeader("allow", "GET, POST, DELETE");
    return sendJson(res, 405, { error: "Method not allowed" });
  };

  /**
   * GET /metrics. Scrapers reach replicas by IP, so a token (either) skips the Host check; without
   * one, /metrics is as guarded as the MCP endpoint on loopback (a DNS-rebinding page sends a foreign
   * Host), and not served on any other address.
   */
  const serveMetrics = (req: IncomingMessage, res: ServerResponse) => {
    if (metricsTokens.length > 0) {
      if (!metricsTokens.some((token) => bearerMatches(req.headers.authorization, token))) {
        res.setHeader("www-authenticate", 'Bearer realm="metrics"');
        return sendJson(res, 401, {
          error: "Unauthorized: send 'Authorization: Bearer <MCP_METRICS_TOKEN or MCP_HTTP_TOKEN>'",
        });
      }
    } else if (!isLoopbackHost(options.host) || !allowedHosts.has((req.headers.host ?? "").toLowerCase())) {
      return sendJson(res, 403, {
        error:
          "Forbidden: without MCP_METRICS_TOKEN, /metrics answers on loopback to loopback Host names only",
      });
    }
    return answerMetrics(req, res);
  };

  /** A session is busy while any of its exchanges is open: a call waiting on the remote, a GET stream. */
  const holdOpen = (session: Session, res: ServerResponse) => {
    session.openExchanges++;
    session.lastSeen = Date.now();
    res.once("close", () => {
      session.openExchanges--;
      session.lastSeen = Date.now();
    });
  };

  /** Whether a new session fits, closing the least recently used idle one when at the cap. */
  const makeRoom = (): boolean => {
    if (sessions.size + starting < maxSessions) return true;
    let oldest: [string, Session] | undefined;
    for (const entry of sessions) {
      if (entry[1].openExchanges === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (!oldest) return false;
    sessions.delete(oldest[0]);
    void oldest[1].transport.close();
    return true;
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`HTTP request failed: ${error instanceof Error ? error.name : String(error)}\n`);
      if (!res.headersSent) sendRpcError(res, 500, "Internal server error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values()) {
        if (session.openExchanges === 0 && now - session.lastSeen > idleMs) void session.transport.close();
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();
  // In team mode clients reach us by the public name of MCP_AUTH_AUDIENCE (through a proxy, often).
  const publicNames = resourceServer ? [resourceServer.resource.hostname.toLowerCase()] : [];
  const hostNames = new Set([...LOOPBACK_NAMES, hostForUrl(options.host), ...publicNames]);
  const publicHosts = resourceServer ? [resourceServer.resource.host.toLowerCase()] : [];
  allowedHosts = new Set([...[...hostNames].flatMap((name) => [name, `${name}:${port}`]), ...publicHosts]);

  return {
    url: `http://${hostForUrl(options.host)}:${port}${path}`,
    async close() {
      clearInterval(sweeper);
      await Promise.allSettled([...sessions.values()].map(({ transport }) => transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase();
}

/** Browsers send Origin; only pages served from this machine (or the bound host) may call us. */
function isLocalOrigin(origin: string, boundHost: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return LOOPBACK_NAMES.includes(hostname) || hostname === hostForUrl(boundHost);
  } catch {
    return false;
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match !== null && timingSafeEqual(digest((match[1] as string).trim()), expected);
}

async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      sendRpcError(res, 413, "Request body too large");
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }));
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Writes a web-standard Response (the SDK's bearer challenge) to a Node response. */
async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

function sendRpcError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}
