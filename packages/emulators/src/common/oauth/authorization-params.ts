// Reading an authorization request's query and answering it by redirect, as both authorization servers
// do: a parameter may be sent at most once (RFC 6749 section 3.1), an empty one counts as absent, and
// the answer goes back to the redirect_uri with its parameters added, never cached.
import { emptyResponse, type HttpResponse } from "../response.js";

/** The one value of a parameter; "many" when it is repeated. */
export function single(params: URLSearchParams, name: string): string | undefined | { many: true } {
  const values = params.getAll(name);
  if (values.length > 1) return { many: true };
  return values[0] === "" ? undefined : values[0];
}

/** A 302 to `redirectUri` with `params` (those not undefined) added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): HttpResponse {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.set(name, value);
  }
  return emptyResponse(302, { location: target.toString(), "cache-control": "no-store" });
}
