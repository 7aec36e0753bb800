// The one route-table design of every emulator: a route is a method, a path template compiled once,
// and a handler that returns a response value. An emulator keeps its routes in a table read top to
// bottom, as its API reference lists them, and asks matchRoute which one a request is for.
import { compilePath, type PathMatcher, type PathOptions, type PathParams } from "./path-pattern.js";
import type { HttpResponse } from "./response.js";

/** A route for every method not listed before it on the same path, e.g. to answer 405 in a set format. */
export const ANY_METHOD = "*";

export interface Route<C> {
  /** An HTTP method, or ANY_METHOD. */
  method: string;
  path: PathMatcher;
  handle(request: C, params: PathParams): HttpResponse | Promise<HttpResponse>;
}

export function route<C>(
  method: string,
  template: string,
  handle: Route<C>["handle"],
  options?: PathOptions,
): Route<C> {
  return { method, path: compilePath(template, options), handle };
}

export type RouteMatch<R> =
  | { kind: "found"; route: R; params: PathParams }
  /** The path exists, not for this method: `allow` lists the methods it takes ("GET, POST"). */
  | { kind: "wrong-method"; allow: string }
  | { kind: "no-route" };

export interface MatchOptions {
  /** HEAD is served by the GET route (and not listed in `allow`), as a GET without the body. */
  headAsGet?: boolean;
}

/** The first route of `routes` for the method and path; routes that match the path alone name `allow`. */
export function matchRoute<R extends Route<never>>(
  routes: readonly R[],
  method: string,
  path: string,
  options: MatchOptions = {},
): RouteMatch<R> {
  const wanted = options.headAsGet && method === "HEAD" ? "GET" : method;
  const allowed: string[] = [];
  for (const candidate of routes) {
    const params = candidate.path(path);
    if (!params) continue;
    if (candidate.method === wanted || candidate.method === ANY_METHOD) {
      return { kind: "found", route: candidate, params };
    }
    // Two templates may match one path (":id/steps" and ":id/:version"): each method is named once.
    if (!allowed.includes(candidate.method)) allowed.push(candidate.method);
  }
  return allowed.length > 0 ? { kind: "wrong-method", allow: allowed.join(", ") } : { kind: "no-route" };
}
