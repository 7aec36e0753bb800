// One throwaway CA for the whole run: emulators started by any test sign their certificates with it,
// and every worker process trusts it through NODE_EXTRA_CA_CERTS (read by Node at process start).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createCertificateAuthority } from "../../packages/emulators/src/common/tls.js";

export default async function setup(project: TestProject) {
  const ca = await createCertificateAuthority("lab-mcp test CA");
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-test-ca-"));
  const caFile = join(dir, "ca.pem");
  writeFileSync(caFile, ca.certPem);
  process.env.NODE_EXTRA_CA_CERTS = caFile;
  project.provide("testCa", { ...ca, caFile });
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    testCa: { certPem: string; keyPem: string; caFile: string };
  }
}
