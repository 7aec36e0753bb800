// One throwaway CA for the whole run: emulators started by any test sign their certificates with it,
// and every worker process trusts it through NODE_EXTRA_CA_CERTS (read by Node at process start).
// vitest runs this once per project (vitest.config.ts has two), each time in a fresh module: the first
// makes the CA and leaves it beside ca.pem, the others read that same one (found through the environment
// the workers inherit), so that every worker of the run trusts every emulator.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createCertificateAuthority } from "../../packages/emulators/src/common/tls.js";

type TestCa = { certPem: string; keyPem: string; caFile: string };
const SHARED = "LAB_MCP_TEST_CA_DIR";

/**
 * The certificates the machine already trusts (a company proxy that inspects TLS, as on CI's way to the
 * npm registry), kept beside the test CA: the setting Node was given, else the system's bundle. Without
 * them npm, run by a test under a Node that does not read the system store (the registry's Node 24),
 * fails every fetch and retries for minutes per package.
 */
function machineTrust(): string {
  const candidates = [
    process.env.NODE_EXTRA_CA_CERTS,
    process.env.SSL_CERT_FILE,
    "/etc/ssl/certs/ca-certificates.crt",
  ];
  const file = candidates.find((path) => path && existsSync(path));
  return file ? `\n${readFileSync(file, "utf8")}` : "";
}

async function makeCa(dir: string): Promise<TestCa> {
  const ca = await createCertificateAuthority("lab-mcp test CA");
  const caFile = join(dir, "ca.pem");
  writeFileSync(caFile, ca.certPem);
  writeFileSync(join(dir, "ca.json"), JSON.stringify({ ...ca, caFile }));
  const trusted = join(dir, "trusted.pem");
  writeFileSync(trusted, ca.certPem + machineTrust());
  process.env.NODE_EXTRA_CA_CERTS = trusted;
  return { ...ca, caFile };
}

export default async function setup(project: TestProject) {
  const existing = process.env[SHARED];
  if (existing && existsSync(join(existing, "ca.json"))) {
    project.provide("testCa", JSON.parse(readFileSync(join(existing, "ca.json"), "utf8")) as TestCa);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-test-ca-"));
  process.env[SHARED] = dir;
  project.provide("testCa", await makeCa(dir));
  // The first project's teardown runs last (vitest tears down in reverse), after every worker is done.
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    testCa: TestCa;
  }
}
