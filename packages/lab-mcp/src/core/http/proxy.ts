// Company networks: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (and their lowercase forms) for every remote
// request of this process. Node's fetch ignores them (before Node 24's NODE_USE_ENV_PROXY), so the
// process's fetch dispatcher becomes undici's EnvHttpProxyAgent, which reads them as curl does; undici
// is the library Node's own fetch is built on, so the OAuth token endpoints and the JWKS and discovery
// fetches go through it alike, and so does RemoteClient, which sends with fetch once a proxy is set
// (node:https otherwise: exchange-io.ts). It is loaded only when a proxy is set: a direct connection
// costs no start-up time.

const PROXY_NAMES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"] as const;
const NO_PROXY_NAMES = ["NO_PROXY", "no_proxy"] as const;

export interface ProxySettings {
  /** The proxy an https:// request goes through (the lowercase name wins, as in curl), if any. */
  https?: URL;
  /** The proxy for http:// requests, if any (the loopback pages never use it: they are served, not fetched). */
  http?: URL;
  noProxy?: string;
}

/** The proxy settings in `env`; a value that is not a URL is left out (proxyProblem says so). */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings {
  const url = (...names: string[]) => {
    const value = names.map((name) => env[name]?.trim()).find((v) => v);
    if (!value) return undefined;
    try {
      return new URL(value.includes("://") ? value : `http://${value}`);
    } catch {
      return undefined;
    }
  };
  const noProxy = NO_PROXY_NAMES.map((name) => env[name]?.trim()).find((v) => v);
  return {
    https: url("https_proxy", "HTTPS_PROXY") ?? url("http_proxy", "HTTP_PROXY"),
    http: url("http_proxy", "HTTP_PROXY"),
    ...(noProxy ? { noProxy } : {}),
  };
}

/** Why a proxy variable cannot be used, or undefined. */
export function proxyProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of PROXY_NAMES) {
    const value = env[name]?.trim();
    if (!value) continue;
    try {
      const url = new URL(value.includes("://") ? value : `http://${value}`);
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        return `${name} must be an http:// or https:// proxy URL, e.g. http://proxy.example:3128`;
      }
    } catch {
      return `${name} is not a URL; use the form http://proxy.example:3128`;
    }
  }
  return undefined;
}

/** The proxy a request to `target` goes through under `proxies`, unless NO_PROXY exempts it. */
export function proxyFor(target: URL, proxies: ProxySettings): URL | undefined {
  const proxy = target.protocol === "https:" ? proxies.https : proxies.http;
  if (!proxy || !proxies.noProxy) return proxy;
  const host = target.hostname.toLowerCase();
  const exempt = proxies.noProxy.split(/[,\s]+/).some((raw) => {
    const entry = raw.trim().toLowerCase().replace(/:\d+$/, "");
    if (!entry) return false;
    if (entry === "*") return true;
    const bare = entry.replace(/^\*?\./, "");
    return host === bare || host.endsWith(`.${bare}`);
  });
  return exempt ? undefined : proxy;
}

let installed = false;

/** Whether fetch goes through a proxy: RemoteClient then sends with fetch (exchange-io.ts). */
export function proxyInstalled(): boolean {
  return installed;
}

/**
 * Sends every fetch of this process through the proxies the environment names, from now on; does
 * nothing when none is set (a direct connection, as before). Safe to call more than once.
 */
export async function useProxyFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (installed) return true;
  if (!PROXY_NAMES.some((name) => env[name]?.trim())) return false;
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import("undici");
  // The URLs as read here, a scheme added where the user left it out (proxy.example:3128, as curl takes
  // it): undici would read the raw variables itself and throw on a value without http://.
  const { https, http, noProxy } = proxySettings(env);
  setGlobalDispatcher(
    new EnvHttpProxyAgent({
      ...(http ? { httpProxy: http.href } : {}),
      ...(https ? { httpsProxy: https.href } : {}),
      ...(noProxy ? { noProxy } : {}),
    }),
  );
  installed = true;
  return true;
}
