// The forms a service's address may take in its settings: the tenant's address as a browser shows it,
// or the same with the API's root (`/api/v2`), with or without a trailing slash. Anything else (a
// query, a fragment, another API root or a path below it) is refused at start, showing the form.

export interface ApiRoot {
  /** The API's root below the tenant's address, e.g. "/api/v2". */
  path: string;
  /** An address of the expected form, shown when a value is refused. */
  example: string;
}

export type BaseUrlForm = { ok: true; url: string } | { ok: false; problem: string };

/**
 * The tenant's address without the API root or a trailing slash, e.g. "https://acme.example" for
 * "https://acme.example/api/v2/"; the services add the root themselves.
 */
export function tenantAddress(url: URL, root: ApiRoot): BaseUrlForm {
  const expected = `must be the service's address, e.g. ${root.example} (with or without ${root.path})`;
  if (url.search || url.hash)
    return { ok: false, problem: `${expected}; a query or fragment is not part of it` };
  let path = url.pathname.replace(/\/+$/, "");
  if (path.toLowerCase().endsWith(root.path)) path = path.slice(0, -root.path.length);
  if (/\/api(\/|$)/i.test(path)) {
    return { ok: false, problem: `${expected}; this one has another API path` };
  }
  return { ok: true, url: `${url.origin}${path}` };
}
