// The network half of `<bin> check`: the proxy, DNS, TCP and TLS to the remote, one step each, tried
// as the server's requests go (through the proxy the environment names, unless NO_PROXY exempts the
// host), each failure classified as tool calls classify it (core/http/network-error.ts).
import { lookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { connect as netConnect, type Socket } from "node:net";
import { type DetailedPeerCertificate, type TLSSocket, connect as tlsConnect } from "node:tls";
import { CertificateError, classifyNetworkError, hostOf, NetworkError } from "../http/network-error.js";
import { proxyFor, proxySettings } from "../http/proxy.js";
import { type CaFile, caFileStep, notTheIssuer } from "./ca-file.js";
import { type CheckStep, failed, passed } from "./report.js";

const STEP_TIMEOUT_MS = 10_000;

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}

/** A failed step from a socket error, classified as a tool call would classify it. */
function classified(name: string, error: unknown, target: URL, env: NodeJS.ProcessEnv): CheckStep {
  const known = classifyNetworkError(error, target, env);
  if (known instanceof NetworkError) return failed(name, `${known.name}: ${known.reason}`, known.remedy);
  return failed(name, known.message);
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`${what}: no answer within ${STEP_TIMEOUT_MS / 1000} s`), {
            code: "ETIMEDOUT",
          }),
        ),
      STEP_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function tcp(host: string, port: number): Promise<Socket> {
  return withTimeout(
    new Promise<Socket>((resolve, reject) => {
      const socket = netConnect({ host, port });
      socket.once("connect", () => resolve(socket));
      socket.once("error", reject);
    }),
    `TCP ${host}:${port}`,
  );
}

/** A tunnel to `target` through the proxy: the socket, or the proxy's refusal as undici words it. */
function tunnel(proxy: URL, target: URL): Promise<Socket> {
  return withTimeout(
    new Promise<Socket>((resolve, reject) => {
      const headers: Record<string, string> = { host: hostOf(target) };
      if (proxy.username) {
        const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
        headers["proxy-authorization"] = `Basic ${Buffer.from(user).toString("base64")}`;
      }
      const req = httpRequest({
        host: proxy.hostname,
        port: portOf(proxy),
        method: "CONNECT",
        path: hostOf(target),
        headers,
      });
      req.once("connect", (response, socket) => {
        if (response.statusCode === 200) resolve(socket);
        else {
          socket.destroy();
          reject(new Error(`Proxy response (${response.statusCode}) !== 200 when HTTP Tunneling`));
        }
      });
      req.once("error", reject);
      req.end();
    }),
    `CONNECT through ${proxy.host}`,
  );
}

function tls(target: URL, socket: Socket | undefined, verify = true): Promise<TLSSocket> {
  return withTimeout(
    new Promise<TLSSocket>((resolve, reject) => {
      const secure = tlsConnect({
        ...(socket ? { socket } : { host: target.hostname, port: portOf(target) }),
        servername: /^[\d.]+$|:/.test(target.hostname) ? undefined : target.hostname,
        ALPNProtocols: ["http/1.1"],
        rejectUnauthorized: verify,
      });
      secure.once("secureConnect", () => resolve(secure));
      secure.once("error", reject);
    }),
    `TLS ${hostOf(target)}`,
  );
}

function issuerOf(socket: TLSSocket): string {
  const issuer = socket.getPeerCertificate()?.issuer;
  const name = issuer?.O || issuer?.CN;
  return name ? `, issued by ${Array.isArray(name) ? name.join(" ") : name}` : "";
}

/** The chain the server presents, read without verifying it (only to name its issuer); undefined if unreachable. */
async function presentedChain(
  target: URL,
  proxy: URL | undefined,
): Promise<DetailedPeerCertificate | undefined> {
  try {
    const secure = await tls(target, proxy ? await tunnel(proxy, target) : undefined, false);
    const peer = secure.getPeerCertificate(true);
    secure.destroy();
    return peer;
  } catch {
    return undefined;
  }
}

/**
 * The steps from the CA file and the proxy to TLS; stops at the first network failure, since the next
 * ones would fail alike. A bad CA file is a failure of its own, and the network steps still run.
 */
export async function networkSteps(target: URL, env: NodeJS.ProcessEnv = process.env): Promise<CheckStep[]> {
  const steps: CheckStep[] = [];
  let caFile: CaFile | undefined;
  const caPath = env.NODE_EXTRA_CA_CERTS?.trim();
  if (caPath) {
    const { step, file } = caFileStep(caPath);
    steps.push(step);
    caFile = file;
  }
  const settings = proxySettings(env);
  const proxy = proxyFor(target, settings);
  const where = hostOf(target);
  let tunnelled: Socket | undefined;
  if (!proxy) {
    const why = settings.https ? `NO_PROXY exempts ${target.hostname}` : "HTTPS_PROXY is not set";
    steps.push(passed("proxy", `none: direct connection (${why})`));
    try {
      const addresses = await withTimeout(lookup(target.hostname, { all: true }), `DNS ${target.hostname}`);
      steps.push(passed("DNS", `${target.hostname} is ${addresses.map((a) => a.address).join(", ")}`));
    } catch (error) {
      steps.push(classified("DNS", error, target, env));
      return steps;
    }
    try {
      const socket = await tcp(target.hostname, portOf(target));
      socket.destroy();
      steps.push(passed("TCP", `${where} accepts connections`));
    } catch (error) {
      steps.push(classified("TCP", error, target, env));
      return steps;
    }
  } else {
    try {
      const socket = await tcp(proxy.hostname, portOf(proxy));
      socket.destroy();
    } catch (error) {
      const code = (error as { code?: string }).code ?? "no answer";
      steps.push(
        failed(
          "proxy",
          `ProxyError: the proxy ${proxy.host} cannot be reached (${code})`,
          "check HTTPS_PROXY (the form is http://proxy.example:3128), or unset it to connect directly",
        ),
      );
      return steps;
    }
    try {
      tunnelled = await tunnel(proxy, target);
      steps.push(passed("proxy", `${proxy.host} opened a tunnel to ${where} (HTTPS_PROXY)`));
      steps.push(passed("DNS", `resolved by the proxy`));
      steps.push(passed("TCP", `${where} reached through the proxy`));
    } catch (error) {
      steps.push(classified("proxy", error, target, env));
      return steps;
    }
  }
  try {
    const secure = await tls(target, tunnelled);
    const issuer = issuerOf(secure);
    secure.destroy();
    steps.push(passed("TLS", `the certificate of ${target.hostname} is trusted${issuer}`));
  } catch (error) {
    const step = classified("TLS", error, target, env);
    const known = classifyNetworkError(error, target, env);
    // A CA file that was read but is not the one that signed what the server presents: say which CA is.
    const peer =
      caFile && known instanceof CertificateError ? await presentedChain(target, proxy) : undefined;
    steps.push((caFile && peer && notTheIssuer(caFile, peer, where)) || step);
  }
  return steps;
}
