// Company networks: a remote reachable only through a real proxy (tinyproxy, whose own /etc/hosts alone
// knows the remote's name). A tool call and `check` work with HTTPS_PROXY (or https_proxy), the proxy's
// log shows the tunnel; without it, or with NO_PROXY exempting the host, the same call fails naming the
// unknown host and HTTPS_PROXY, in the agent's text, on stderr and in the call log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LabdataEmulator, startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { closedPort, runBin } from "../support/bin-run.js";
import { callOnceOverStdio } from "../support/clients.js";
import { testCa } from "../support/emulator.js";
import {
  NO_PRIVATE_HOSTS,
  NO_TINYPROXY,
  PRIVATE_HOSTS,
  PROXY_ONLY_HOST,
  type RunningProxy,
  startNamedFront,
  startTinyproxy,
  TINYPROXY,
} from "../support/proxy.js";

const skip = !TINYPROXY ? NO_TINYPROXY : !PRIVATE_HOSTS ? NO_PRIVATE_HOSTS : undefined;
if (skip) console.warn(skip);

describe.skipIf(skip !== undefined)("a remote reachable only through the company proxy", () => {
  let emulator: LabdataEmulator;
  let proxy: RunningProxy;
  let front: { port: number; close(): Promise<void> };
  let env: Record<string, string>;
  let tunnel: string;

  beforeAll(async () => {
    emulator = await startLabdataEmulator({ ca: testCa() });
    const demo = emulator.demo;
    if (!demo) throw new Error("no demo data");
    front = await startNamedFront(emulator.url);
    proxy = await startTinyproxy();
    tunnel = `${PROXY_ONLY_HOST}:${front.port}`;
    env = {
      LABDATA_BASE_URL: `https://${tunnel}/${demo.tenant}`,
      LABDATA_API_KEY: demo.user.apiKey,
      NODE_EXTRA_CA_CERTS: testCa().caFile,
      MCP_LOG_CALLS: "true",
    };
  });
  afterAll(async () => {
    await proxy?.stop();
    await front?.close();
    await emulator?.close();
  });

  const currentUser = (extra: Record<string, string>) =>
    callOnceOverStdio("labdata-mcp", { ...env, ...extra }, "labdata_get_current_user");

  it("a tool call goes through HTTPS_PROXY, and the proxy's log shows its tunnel", async () => {
    const before = proxy.log().split(`CONNECT ${tunnel}`).length;
    const result = await currentUser({ HTTPS_PROXY: proxy.url });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("# Signed in to the lab data platform");
    expect(proxy.log().split(`CONNECT ${tunnel}`).length).toBeGreaterThan(before);
  });

  it("a proxy written without its scheme (host:port) is taken as http://, as curl takes it", async () => {
    const bare = proxy.url.replace(/^http:\/\//, "");
    const result = await currentUser({ HTTPS_PROXY: bare });
    expect(result.isError).toBe(false);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const checked = await runBin("labdata-mcp", ["check"], { ...env, HTTPS_PROXY: bare });
    expect(checked.stdout).toContain(`opened a tunnel to ${tunnel}`);
    expect(checked.code).toBe(0);
  });

  it("the lowercase https_proxy works alike", async () => {
    const result = await currentUser({ https_proxy: proxy.url });
    expect(result.isError).toBe(false);
  });

  it("without the proxy the host is unknown: the agent, stderr and the call log say so and name HTTPS_PROXY", async () => {
    const result = await currentUser({});
    expect(result.text).toBe("Error: Unexpected error occurred: HostNotFoundError");
    expect(result.stderr).toMatch(
      /HostNotFoundError: the host labdata\.proxy-only\.test is not known.*HTTPS_PROXY/,
    );
    expect(result.stderr).toContain('"error":"host_not_found"');
  });

  it("NO_PROXY exempting the host sends it direct, where it is unknown", async () => {
    const result = await currentUser({ HTTPS_PROXY: proxy.url, NO_PROXY: ".proxy-only.test" });
    expect(result.text).toBe("Error: Unexpected error occurred: HostNotFoundError");
  });

  it("check passes through the proxy and names the tunnel", async () => {
    const result = await runBin("labdata-mcp", ["check"], { ...env, HTTPS_PROXY: proxy.url });
    expect(result.stdout).toContain(`opened a tunnel to ${tunnel}`);
    expect(result.stdout).toContain("All checks passed");
    expect(result.code).toBe(0);
  });

  it("check without the proxy names the unknown host and HTTPS_PROXY", async () => {
    const result = await runBin("labdata-mcp", ["check"], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}DNS +HostNotFoundError/);
    expect(result.stdout).toMatch(/fix: .*set HTTPS_PROXY/);
  });
});

describe("a proxy variable as users write it, whatever the network", () => {
  let emulator: LabdataEmulator;
  let env: Record<string, string>;
  let dead: string;
  beforeAll(async () => {
    emulator = await startLabdataEmulator({ ca: testCa() });
    const demo = emulator.demo;
    if (!demo) throw new Error("no demo data");
    env = {
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_API_KEY: demo.user.apiKey,
      NODE_EXTRA_CA_CERTS: testCa().caFile,
    };
    // host:port with no scheme, the common form; nothing listens there.
    dead = `127.0.0.1:${await closedPort()}`;
  });
  afterAll(() => emulator?.close());

  it("the server starts with HTTPS_PROXY=host:port and a call names the unreachable proxy, no stack trace", async () => {
    // A tenant's name (not the emulator's 127.0.0.1): the failure is then plainly at the proxy.
    const tenant = { ...env, LABDATA_BASE_URL: "https://acme.benchling.test" };
    const result = await callOnceOverStdio(
      "labdata-mcp",
      { ...tenant, HTTPS_PROXY: dead },
      "labdata_get_current_user",
    );
    expect(result.text).toBe("Error: Unexpected error occurred: ProxyError");
    expect(result.stderr).toContain(`the proxy ${dead} named by HTTPS_PROXY cannot be reached`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("check with HTTPS_PROXY=host:port says the proxy cannot be reached, in one step", async () => {
    const result = await runBin("labdata-mcp", ["check"], { ...env, HTTPS_PROXY: dead });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`FAIL {2}proxy +ProxyError: the proxy ${dead} cannot be reached`),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("a proxy of another kind is refused at start in one line showing the form", async () => {
    const result = await runBin("labdata-mcp", [], { ...env, HTTPS_PROXY: "socks5://127.0.0.1:1080" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      "labdata-mcp: HTTPS_PROXY must be an http:// or https:// proxy URL, e.g. http://proxy.example:3128.",
    ]);
  });
});
