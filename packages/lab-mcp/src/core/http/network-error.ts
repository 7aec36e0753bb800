// What a failed connection means, told apart: an untrusted certificate, an unknown host, a refused
// port, a proxy that refuses or cannot be reached; each with the remedy a user can apply. The agent
// reads the conventions' exact text with the type's name (`Error: Unexpected error occurred:
// CertificateError`), the call log its kind, and stderr one line with the cause and the remedy.
import { ConnectionError, type ErrorKind } from "../errors.js";
import { proxyFor, proxySettings } from "./proxy.js";

/** A ConnectionError whose cause is known, with the remedy. */
export abstract class NetworkError extends ConnectionError {
  abstract override readonly kind: ErrorKind;
  constructor(
    /** What failed, e.g. "the certificate of acme.example:443 is not trusted (SELF_SIGNED_CERT_IN_CHAIN)". */
    readonly reason: string,
    /** What to do about it. */
    readonly remedy: string,
  ) {
    super(`${reason}; ${remedy}`);
  }
}

export class CertificateError extends NetworkError {
  override readonly name = "CertificateError";
  override readonly kind = "certificate_untrusted";
}

export class HostNotFoundError extends NetworkError {
  override readonly name = "HostNotFoundError";
  override readonly kind = "host_not_found";
}

export class ConnectionRefusedError extends NetworkError {
  override readonly name = "ConnectionRefusedError";
  override readonly kind = "connection_refused";
}

export class ProxyError extends NetworkError {
  override readonly name = "ProxyError";
  override readonly kind = "proxy_failed";
}

/** The codes and messages along an error's chain of causes (fetch wraps the socket's error twice). */
function chain(
  error: unknown,
): Array<Error & { code?: unknown; hostname?: unknown; address?: unknown; port?: unknown }> {
  const found = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    found.push(current);
    current = current.cause;
  }
  return found;
}

/**
 * Whether the connection was reset or closed under the request before any answer: what a remote (or a
 * load balancer before it) does to a kept-alive connection it closed while idle, just as the pool
 * sends on it. An idempotent request may be sent again once on a new connection.
 */
export function isResetBeforeAnswer(error: unknown): boolean {
  return chain(error).some(
    (cause) => cause.code === "ECONNRESET" || cause.code === "EPIPE" || cause.code === "UND_ERR_SOCKET",
  );
}

const CERTIFICATE_CODES =
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/;

export function hostOf(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/**
 * The failure of a request to `target`, classified; a plain ConnectionError (described by its code)
 * when the cause is none of those a user can fix.
 */
export function classifyNetworkError(
  error: unknown,
  target: URL,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionError {
  if (error instanceof ConnectionError) return error;
  const causes = chain(error);
  const proxy = proxyFor(target, proxySettings(env));
  const where = hostOf(target);
  const code = (causes.map((c) => c.code).find((c) => typeof c === "string" && c !== "UND_ERR_ABORTED") ??
    "") as string;
  const proxyName = "HTTPS_PROXY";
  const tunnel = causes.map((c) => /Proxy response \((\d+)\)/.exec(c.message)).find(Boolean);
  if (proxy && tunnel) {
    const status = Number(tunnel[1]);
    if (status === 407) {
      return new ProxyError(
        `the proxy ${proxy.host} asks for a sign-in (407)`,
        `put the proxy's user and password in ${proxyName} (http://user:password@${proxy.host}), or ask IT for the proxy to use`,
      );
    }
    return new ProxyError(
      `the proxy ${proxy.host} refused or could not open a tunnel to ${where} (HTTP ${status})`,
      `check the address in the server's settings, or ask IT whether the proxy lets ${where} through; to go direct, add the host to NO_PROXY`,
    );
  }
  const failing = causes.find((c) => typeof c.code === "string" && c.code !== "UND_ERR_ABORTED");
  const failingHost = typeof failing?.hostname === "string" ? failing.hostname : undefined;
  const failingAddress = typeof failing?.address === "string" ? failing.address : undefined;
  const failingPort = typeof failing?.port === "number" ? String(failing.port) : undefined;
  const atProxy =
    proxy !== undefined &&
    (failingHost === proxy.hostname ||
      (failingAddress !== undefined &&
        failingPort === (proxy.port || "80") &&
        failingHost === undefined &&
        failingAddress !== target.hostname));
  if (
    proxy &&
    atProxy &&
    (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ECONNREFUSED" || code === "ETIMEDOUT")
  ) {
    return new ProxyError(
      `the proxy ${proxy.host} named by ${proxyName} cannot be reached (${code})`,
      `check ${proxyName} (the form is http://proxy.example:3128), or unset it to connect directly`,
    );
  }
  if (CERTIFICATE_CODES.test(code)) {
    const through = proxy ? ` (through the proxy ${proxy.host})` : "";
    return new CertificateError(
      `the certificate of ${where}${through} is not trusted (${code})`,
      "set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signed it (your company's, if its network inspects " +
        "HTTPS; the tenant's private CA otherwise), and HTTPS_PROXY to the company's proxy if it has one; restart the server after",
    );
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new HostNotFoundError(
      `the host ${target.hostname} is not known to DNS (${code})`,
      proxy
        ? "check the address in the server's settings"
        : "check the address in the server's settings; if your company's network only lets traffic out through a proxy, set HTTPS_PROXY (e.g. http://proxy.example:3128)",
    );
  }
  if (code === "ECONNREFUSED") {
    return new ConnectionRefusedError(
      `${where} refused the connection (ECONNREFUSED)`,
      "check the address and port in the server's settings; if only a proxy may connect out, set HTTPS_PROXY",
    );
  }
  return new ConnectionError(`The connection to the remote failed${code ? ` (${code})` : ""}`);
}

const reported = new Set<string>();

/**
 * One stderr line per cause and host for this process: the user (or the client's log of its server)
 * sees what failed and what to do, once; never the request's path or credential.
 */
export function reportNetworkError(
  error: ConnectionError,
  write = (line: string) => process.stderr.write(line),
): void {
  if (!(error instanceof NetworkError)) return;
  const line = `lab-mcp: ${error.name}: ${error.message}\n`;
  if (reported.has(line)) return;
  reported.add(line);
  write(line);
}
