// A small HTTPS protocol repository that answers each endpoint with what the test gives it: the stand-in
// for the real service, whose answers are known only from the recorded examples in the fact sheet
// (shared/reference/protocols-io-api.md, copied into fixtures.ts). Built without our emulator, so that
// the emulator's guesses cannot hide where the client's are wrong.
import type { IncomingMessage } from "node:http";
import { startHttpsServer } from "../../../packages/emulators/src/common/https-server.js";
import { testCa } from "../../support/emulator.js";

export type Route =
  | "list"
  | "protocol"
  | "steps"
  | "profile"
  | "authorize"
  | "token"
  | "pdf"
  | "write-steps"
  | "delete-steps";

export interface Seen {
  route: Route;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  /** The form body of a POST. */
  form: Record<string, string>;
  /** The body as sent. */
  text: string;
}

export interface Answer {
  status?: number;
  /** JSON unless it is bytes. */
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: Seen) => Answer;

export interface FakeRepository {
  baseUrl: string;
  on(route: Route, handler: Handler | Answer): void;
  /** Every request served, in order. */
  seen: Seen[];
  close(): Promise<void>;
}

function routeOf(method: string | undefined, path: string): Route | undefined {
  if (method === "GET" && path === "/api/v3/protocols") return "list";
  if (method === "GET" && /^\/api\/v4\/protocols\/[^/]+\/steps$/.test(path)) return "steps";
  if (method === "GET" && /^\/api\/v4\/protocols\/[^/]+$/.test(path)) return "protocol";
  if (method === "GET" && path === "/api/v3/session/profile") return "profile";
  if (method === "GET" && path === "/api/v3/oauth/authorize") return "authorize";
  if (method === "POST" && path === "/api/v3/oauth/token") return "token";
  if (method === "GET" && /^\/view\/[^/]+\.pdf$/.test(path)) return "pdf";
  if (method === "POST" && /^\/api\/v4\/protocols\/[^/]+\/steps$/.test(path)) return "write-steps";
  if (method === "DELETE" && /^\/api\/v4\/protocols\/[^/]+\/steps$/.test(path)) return "delete-steps";
  return undefined;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startFakeRepository(): Promise<FakeRepository> {
  const handlers = new Map<Route, Handler>();
  const seen: Seen[] = [];
  const server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      const text = await bodyOf(req);
      const form = Object.fromEntries(new URLSearchParams(text));
      const route = routeOf(req.method, url.pathname);
      const handler = route ? handlers.get(route) : undefined;
      if (!route || !handler) {
        res
          .writeHead(500, { "content-type": "text/plain" })
          .end(`the test set no answer for ${url.pathname}`);
        return;
      }
      const request: Seen = {
        route,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization: req.headers.authorization ?? null,
        form,
        text,
      };
      seen.push(request);
      const answer = handler(request);
      if (answer.body instanceof Uint8Array) {
        res
          .writeHead(answer.status ?? 200, { "content-type": "application/pdf", ...answer.headers })
          .end(answer.body);
        return;
      }
      res
        .writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers })
        .end(JSON.stringify(answer.body));
    },
  });
  return {
    baseUrl: server.url.replace(/\/+$/, ""),
    on(route, handler) {
      handlers.set(route, typeof handler === "function" ? handler : () => handler);
    },
    seen,
    close: () => server.close(),
  };
}
