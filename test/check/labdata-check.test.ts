// `labdata-mcp check` against the lab data emulator: all steps pass with good settings, and each first
// mistake a new user makes is named with its cause and its fix, in the step where it happens.
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCertificateAuthority } from "../../packages/emulators/src/common/tls.js";
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

  describe("diagnoses the CA file NODE_EXTRA_CA_CERTS names, each fault with its own fix", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "check-ca-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("a good file: the step names its certificates", async () => {
      const result = await check(good);
      expect(result.stdout).toMatch(/ok {4}CA file +\S+ca\.pem: 1 certificate \(lab-mcp test CA\)/);
    });

    it("a missing file", async () => {
      const result = await check({ ...good, NODE_EXTRA_CA_CERTS: join(dir, "no-such-ca.pem") });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /FAIL {2}CA file +NODE_EXTRA_CA_CERTS names \S+no-such-ca\.pem, which does not exist/,
      );
      expect(result.stdout).toContain("fix: set NODE_EXTRA_CA_CERTS to the full path of the CA's PEM file");
    });

    it("a file that cannot be read (a folder)", async () => {
      const result = await check({ ...good, NODE_EXTRA_CA_CERTS: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /FAIL {2}CA file +NODE_EXTRA_CA_CERTS names \S+, which cannot be read \(EISDIR\)/,
      );
      expect(result.stdout).toContain("fix: name the PEM file itself, not its folder");
    });

    it.skipIf(process.getuid?.() === 0)("a file its user may not read", async () => {
      const file = join(dir, "private-ca.pem");
      writeFileSync(file, testCa().certPem, { mode: 0o000 });
      const result = await check({ ...good, NODE_EXTRA_CA_CERTS: file });
      expect(result.stdout).toMatch(/FAIL {2}CA file +.*cannot be read \(EACCES\)/);
      expect(result.stdout).toContain("fix: make the file readable");
    });

    it("a certificate in binary DER, not PEM", async () => {
      const file = join(dir, "ca.cer");
      writeFileSync(file, new X509Certificate(testCa().certPem).raw);
      const result = await check({ ...good, NODE_EXTRA_CA_CERTS: file });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/FAIL {2}CA file +\S+ca\.cer holds no PEM certificate .*binary DER/);
      expect(result.stdout).toContain(
        `fix: convert it to PEM: openssl x509 -inform der -in ${file} -out ca.pem`,
      );
    });

    it("a file of something else", async () => {
      const file = join(dir, "notes.txt");
      writeFileSync(file, "ask IT for the proxy's CA\n");
      const result = await check({ ...good, NODE_EXTRA_CA_CERTS: file });
      expect(result.stdout).toMatch(/FAIL {2}CA file +\S+notes\.txt holds no PEM certificate/);
      expect(result.stdout).toContain("fix: set NODE_EXTRA_CA_CERTS to the CA certificate in PEM form");
    });

    it("a PEM file of another CA than the one that signed the server's certificate", async () => {
      const other = await createCertificateAuthority("Some Other Root CA");
      const file = join(dir, "other-ca.pem");
      writeFileSync(file, other.certPem);
      const result = await check({ ...good, NODE_EXTRA_CA_CERTS: file });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/ok {4}CA file +\S+other-ca\.pem: 1 certificate \(Some Other Root CA\)/);
      expect(result.stdout).toMatch(
        /FAIL {2}TLS +CertificateError: the certificate of 127\.0\.0\.1:\d+ is issued by "lab-mcp test CA", and none of the 1 certificate\(s\) in \S+other-ca\.pem is that CA/,
      );
      expect(result.stdout).toContain('fix: add the certificate of "lab-mcp test CA" (PEM) to');
    });
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
