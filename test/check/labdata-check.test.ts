// `labdata-mcp check` against the lab data emulator: all steps pass with good settings, and each first
// mistake a new user makes is named with its cause and its fix, in the step where it happens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LabdataEmulator, startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { closedPort, runBin } from "../support/bin-run.js";
import { testCa } from "../support/emulator.js";

let emulator: LabdataEmulator;
let good: Record<string, string>;

beforeAll(async () => {
  emulator = await startLabdataEmulator({ ca: testCa() });
  const demo = emulator.demo;
  if (!demo) throw new Error("no demo data");
  good = {
    LABDATA_BASE_URL: demo.baseUrl,
    LABDATA_API_KEY: demo.user.apiKey,
    NODE_EXTRA_CA_CERTS: testCa().caFile,
  };
});
afterAll(() => emulator?.close());

const check = (env: Record<string, string>) => runBin("labdata-mcp", ["check"], env);

describe("labdata-mcp check", () => {
  it("passes every step with good settings, naming who the key is and the rate headers seen", async () => {
    const result = await check(good);
    expect(result.stdout).toContain("All checks passed");
    expect(result.code).toBe(0);
    for (const step of ["address", "proxy", "DNS", "TCP", "TLS", "credential", "sample read", "rate limit"]) {
      expect(result.stdout).toMatch(new RegExp(`ok {4}${step}`));
    }
    expect(result.stdout).toMatch(/API key .*signs in as \S/);
    expect(result.stdout).toMatch(/x-rate-limit-(limit|remaining)/);
    expect(result.stdout).toMatch(/read the first project: \S/);
  });

  it("accepts the address with /api/v2 and a trailing slash", async () => {
    const result = await check({ ...good, LABDATA_BASE_URL: `${good.LABDATA_BASE_URL}/api/v2/` });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`address      ${good.LABDATA_BASE_URL} (requests go to`);
  });

  it("refuses another API path at start with one line showing the form", async () => {
    const result = await check({ ...good, LABDATA_BASE_URL: `${good.LABDATA_BASE_URL}/api/v1` });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAIL  settings");
    expect(result.stdout).toContain("e.g. https://acme.benchling.com (with or without /api/v2)");
    const start = await runBin("labdata-mcp", [], {
      ...good,
      LABDATA_BASE_URL: `${good.LABDATA_BASE_URL}/api/v1`,
    });
    expect(start.code).toBe(2);
    expect(start.stderr.trim().split("\n")).toHaveLength(1);
    expect(start.stderr).toContain("with or without /api/v2");
  });

  it("names an untrusted certificate and NODE_EXTRA_CA_CERTS", async () => {
    const { NODE_EXTRA_CA_CERTS: _, ...untrusted } = good;
    const result = await check(untrusted);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL {2}TLS +CertificateError: the certificate of 127\.0\.0\.1:\d+ is not trusted/,
    );
    expect(result.stdout).toMatch(/fix: .*NODE_EXTRA_CA_CERTS.*HTTPS_PROXY/);
  });

  it("names an unknown host, and the proxy a company network may require", async () => {
    const result = await check({ ...good, LABDATA_BASE_URL: "https://no-such-tenant.invalid" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL {2}DNS +HostNotFoundError: the host no-such-tenant\.invalid is not known/,
    );
    expect(result.stdout).toMatch(/fix: check the address .*set HTTPS_PROXY/);
  });

  it("names a refused port", async () => {
    const port = await closedPort();
    const result = await check({ ...good, LABDATA_BASE_URL: `https://127.0.0.1:${port}/acme` });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL {2}TCP +ConnectionRefusedError: 127\.0\.0\.1:\d+ refused the connection/,
    );
  });

  it("names a proxy that cannot be reached", async () => {
    const port = await closedPort();
    const result = await check({ ...good, HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}proxy +ProxyError: the proxy 127\.0\.0\.1:\d+ cannot be reached/);
    expect(result.stdout).toContain("fix: check HTTPS_PROXY");
  });

  it("names a wrong key with the conventions' text and where keys come from", async () => {
    const result = await check({ ...good, LABDATA_API_KEY: "sk_not_a_real_key" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}credential +Error: Invalid API authentication/);
    expect(result.stdout).toMatch(/fix: .*LABDATA_API_KEY/);
  });
});
