// A real forward proxy for the company-network tests: Debian's tinyproxy (.ci/run installs it), on a
// free loopback port, logging every CONNECT. To prove a remote is reachable only through it, the proxy
// runs in a mount namespace of its own (unshare, as root) whose /etc/hosts alone knows the remote's
// name; the tool server cannot resolve that name. The remote's name is served by a TLS front of the
// emulator with a certificate for that name, from the run's CA. Without tinyproxy or unshare the
// tests skip, saying so.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, connect as netConnect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { connect, createServer } from "node:tls";
import { issueServerCertificate } from "../../packages/emulators/src/common/tls.js";
import { testCa } from "./emulator.js";
import { freePort } from "./ports.js";

function find(name: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? "").split(delimiter).filter(Boolean),
    "/usr/bin",
    "/usr/sbin",
    "/bin",
  ];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return undefined;
}

export const TINYPROXY = find("tinyproxy");
export const NO_TINYPROXY =
  "tinyproxy not found (install Debian's: apt-get install tinyproxy): proxy tests skipped";

/** Whether this process may give the proxy its own /etc/hosts (root, and unshare allowed here). */
export const PRIVATE_HOSTS = (() => {
  const unshare = find("unshare");
  if (!unshare || process.getuid?.() !== 0) return false;
  try {
    execFileSync(unshare, ["--mount", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
export const NO_PRIVATE_HOSTS =
  "unshare --mount is not allowed here (needs root): the 'only through the proxy' tests skipped";

/** A name no DNS knows; only the proxy's own /etc/hosts maps it to 127.0.0.1. */
export const PROXY_ONLY_HOST = "labdata.proxy-only.test";

export interface RunningProxy {
  url: string;
  /** The proxy's log so far (CONNECT lines name each tunnel's host and port). */
  log(): string;
  stop(): Promise<void>;
}

export async function startTinyproxy(): Promise<RunningProxy> {
  if (!TINYPROXY) throw new Error(NO_TINYPROXY);
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-proxy-"));
  const port = await freePort();
  const logFile = join(dir, "tinyproxy.log");
  writeFileSync(join(dir, "hosts"), `127.0.0.1 localhost\n127.0.0.1 ${PROXY_ONLY_HOST}\n`);
  writeFileSync(
    join(dir, "tinyproxy.conf"),
    [
      `Port ${port}`,
      "Listen 127.0.0.1",
      "Timeout 30",
      "MaxClients 50",
      "Allow 127.0.0.1",
      "LogLevel Connect",
      `LogFile "${logFile}"`,
    ].join("\n"),
  );
  const run = `exec ${TINYPROXY} -d -c ${join(dir, "tinyproxy.conf")}`;
  const child: ChildProcess = PRIVATE_HOSTS
    ? spawn("unshare", ["--mount", "sh", "-c", `mount --bind ${join(dir, "hosts")} /etc/hosts && ${run}`], {
        stdio: "ignore",
      })
    : spawn(TINYPROXY, ["-d", "-c", join(dir, "tinyproxy.conf")], { stdio: "ignore" });
  const log = () => {
    try {
      return readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`tinyproxy did not start: ${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The emulator at `origin` under PROXY_ONLY_HOST: TLS with a certificate for that name from the run's
 * CA, each connection relayed to the emulator's own TLS. Listens on loopback; the name is the lock.
 */
export async function startNamedFront(origin: string): Promise<{ port: number; close(): Promise<void> }> {
  const target = new URL(origin);
  const ca = testCa();
  const leaf = await issueServerCertificate(ca, [PROXY_ONLY_HOST]);
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (front) => {
    const back = connect({
      host: target.hostname,
      port: Number(target.port),
      ca: ca.certPem,
      servername: "localhost",
    });
    front.pipe(back).pipe(front);
    const end = () => {
      front.destroy();
      back.destroy();
    };
    front.once("error", end).once("close", end);
    back.once("error", end).once("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
