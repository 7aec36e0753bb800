// A small HTTPS lab data platform that answers whatever the test last told it to, per operation: the
// stand-in for a real tenant whose answers are only known to fit the OpenAPI document.
import { startHttpsServer } from "../../packages/emulators/src/common/https-server.js";
import { testCa } from "../support/emulator.js";

export interface CannedAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** "METHOD /path" below /api/v2, with "{id}" for a path segment, e.g. "GET /dna-sequences/{id}". */
export type Route =
  | "GET /users/me"
  | "GET /dna-sequences"
  | "POST /dna-sequences"
  | "GET /dna-sequences/{id}"
  | "GET /projects"
  | "GET /folders"
  | "POST /token";

export interface CannedRemote {
  /** What labdata_mcp takes as LABDATA_BASE_URL. */
  baseUrl: string;
  answer(route: Route, answer: CannedAnswer): void;
  /** Requests served per route since the start. */
  served(route: Route): number;
  close(): Promise<void>;
}

const API_ROOT = "/tenant/api/v2";

function routeOf(method: string | undefined, path: string): Route | undefined {
  const route = `${method} ${path.replace(/^\/dna-sequences\/[^/]+$/, "/dna-sequences/{id}")}`;
  const known: Route[] = [
    "GET /users/me",
    "GET /dna-sequences",
    "POST /dna-sequences",
    "GET /dna-sequences/{id}",
    "GET /projects",
    "GET /folders",
    "POST /token",
  ];
  return known.find((candidate) => candidate === route);
}

export async function startCannedRemote(
  defaults: Partial<Record<Route, CannedAnswer>> = {},
): Promise<CannedRemote> {
  const answers = new Map<Route, CannedAnswer>(Object.entries(defaults) as [Route, CannedAnswer][]);
  const counts = new Map<Route, number>();
  const server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      for await (const _ of req); // the request body is not needed
      const route = url.pathname.startsWith(API_ROOT)
        ? routeOf(req.method, url.pathname.slice(API_ROOT.length))
        : undefined;
      const answer = route ? answers.get(route) : undefined;
      if (!route || !answer) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "no canned answer", type: "invalid_request_error" } }));
        return;
      }
      counts.set(route, (counts.get(route) ?? 0) + 1);
      const text = JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(text)),
        ...answer.headers,
      });
      res.end(text);
    },
  });
  return {
    baseUrl: `${server.url}/tenant`,
    answer: (route, answer) => void answers.set(route, answer),
    served: (route) => counts.get(route) ?? 0,
    close: () => server.close(),
  };
}
