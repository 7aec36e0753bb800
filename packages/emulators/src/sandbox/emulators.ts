// The emulated remote services of the sandbox, with their demo data, all signed by one throwaway CA
// whose certificate file the tool servers trust through NODE_EXTRA_CA_CERTS.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority } from "../common/tls.js";
import { startExampleEmulator } from "../example/index.js";
import { startIdentityProvider } from "../idp/index.js";
import { type DemoData, startLabdataEmulator } from "../labdata/index.js";
import { type DemoSetup, startProtocolsEmulator } from "../protocols/index.js";

/** The audience the demo tenant accepts in ID tokens of the sandbox's OpenID provider. */
export const OIDC_AUDIENCE = "lab-sandbox";

export interface SandboxEmulators {
  /** A folder of the OS temp dir (outside the project tree), removed on stop. */
  dir: string;
  /** The CA certificate (PEM) every emulator's certificate is signed by. */
  caFile: string;
  /** warehouseUrl: the demo tenant's data warehouse (PostgreSQL over TLS), postgres://127.0.0.1:<port>/warehouse. */
  labdata: { origin: string; demo: DemoData; idpIssuer: string; warehouseUrl: string };
  protocols: { url: string; demo: DemoSetup };
  example: { url: string; apiKey: string };
  stop(): Promise<void>;
}

export async function startEmulators(): Promise<SandboxEmulators> {
  const dir = mkdtempSync(join(tmpdir(), "lab-sandbox-"));
  const stops: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const caFile = join(dir, "ca.pem");
    const ca = await createCertificateAuthority("lab-sandbox CA");
    writeFileSync(caFile, ca.certPem);

    const labdata = await startLabdataEmulator({ ca });
    stops.push(() => labdata.close());
    const warehouse = await labdata.warehouse(labdata.demo?.tenant ?? "acme");
    const idp = await startIdentityProvider({ ca, clock: labdata.clock });
    stops.push(() => idp.close());
    const labdataDemo = labdata.demo;
    if (!labdataDemo) throw new Error("the lab data emulator started without its demo data");
    labdata.admin.updateSettings(labdataDemo.tenant, {
      oidc: { configurationUrl: idp.configurationUrl, audience: OIDC_AUDIENCE },
    });

    const protocols = await startProtocolsEmulator({ ca });
    stops.push(() => protocols.close());
    if (!protocols.demo) throw new Error("the protocol repository emulator started without its demo data");

    const example = await startExampleEmulator({ ca });
    stops.push(() => example.close());

    return {
      dir,
      caFile,
      labdata: { origin: labdata.url, demo: labdataDemo, idpIssuer: idp.issuer, warehouseUrl: warehouse.url },
      protocols: { url: protocols.url, demo: protocols.demo },
      example: { url: example.url, apiKey: example.apiKey },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
