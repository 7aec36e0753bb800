// A company proxy set in the shell (HTTPS_PROXY, often without its scheme) must not take the sandbox's
// and the demo's traffic, which is all on this machine's loopback: the proxy here listens nowhere, so a
// request sent to it fails. Their banners say the proxy settings are not passed on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts, type RunningBin, runBin, waitFor } from "../sandbox/processes.js";
import { closedPort } from "../support/bin-run.js";
import { connectModernHttp, textOf } from "../support/clients.js";

let proxyEnv: Record<string, string>;
beforeAll(async () => {
  const dead = `127.0.0.1:${await closedPort()}`;
  proxyEnv = { HTTPS_PROXY: dead, http_proxy: `http://${dead}` };
});

describe("npm start with a proxy in the shell", () => {
  let sandbox: RunningBin;
  beforeAll(async () => {
    const port = await freePorts(3);
    sandbox = runBin("lab-sandbox", ["--port", String(port)], proxyEnv);
    await waitFor(() => sandbox.output().includes("paste it again after a restart"), "the banner");
  });
  afterAll(async () => {
    if (sandbox.child.exitCode === null) sandbox.child.kill("SIGINT");
    await sandbox.exited();
  });

  it("says the shell's proxy is not passed on, and its servers reach the emulators direct", async () => {
    expect(sandbox.output()).toContain(
      "The shell's proxy settings (HTTPS_PROXY, http_proxy) are not passed to these servers",
    );
    for (const [server, tool] of [
      ["labdata_mcp", "labdata_get_current_user"],
      ["protocols_mcp", "protocols_get_profile"],
    ] as const) {
      const url = new RegExp(`${server} +(http://\\S+/mcp)`).exec(sandbox.output())?.[1] as string;
      const { client, close } = await connectModernHttp(url);
      try {
        const result = textOf(await client.callTool({ name: tool, arguments: {} }));
        expect(result.isError, result.text).toBe(false);
      } finally {
        await close();
      }
    }
  });
});

describe("npm run demo with a proxy in the shell", () => {
  it("tours both servers direct and says so", { timeout: 90_000 }, async () => {
    const demo = runBin("lab-demo", [], proxyEnv);
    const code = await demo.exited(80_000);
    expect(code, demo.output()).toBe(0);
    expect(demo.output()).toContain("The shell's proxy settings (HTTPS_PROXY, http_proxy) are not passed");
    expect(demo.output()).not.toMatch(/ProxyError/);
  });
});
