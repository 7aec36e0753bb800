// Emulators for tests, signed by the run's CA so that every process of the run trusts them: one way to
// start each, and one fixture (`use…Emulator`, on fixture.ts) that starts it before a file's (or a
// describe's) tests and closes it after them, instead of every file writing that pair of hooks again.
import { inject } from "vitest";
import { type ExampleEmulator, startExampleEmulator } from "../../packages/emulators/src/example/index.js";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import {
  type DemoData,
  type LabdataEmulator,
  type LabdataEmulatorOptions,
  startLabdataEmulator,
} from "../../packages/emulators/src/labdata/index.js";
import {
  type DemoSetup,
  type ProtocolsEmulator,
  type ProtocolsEmulatorOptions,
  startProtocolsEmulator,
} from "../../packages/emulators/src/protocols/index.js";
import { useStarted } from "./fixture.js";

export function testCa() {
  return inject("testCa");
}

/** The run's CA as the emulators take it: certificate and key. */
export function caPems(): { certPem: string; keyPem: string } {
  const { certPem, keyPem } = testCa();
  return { certPem, keyPem };
}

/** An emulator started with its demo data (the default), typed so. */
export type TestLabdata = LabdataEmulator & { demo: DemoData };
export type TestProtocols = ProtocolsEmulator & { demo: DemoSetup };

/** The demo data of an emulator that must have it. */
export function demoOf<Demo>(emulator: { demo?: Demo | null | undefined }): Demo {
  if (!emulator.demo) throw new Error("the emulator started without demo data");
  return emulator.demo;
}

export async function startTestExample(): Promise<ExampleEmulator> {
  return startExampleEmulator({ ca: caPems() });
}

export function startTestLabdata(options: LabdataEmulatorOptions & { demo: false }): Promise<LabdataEmulator>;
export function startTestLabdata(options?: LabdataEmulatorOptions): Promise<TestLabdata>;
export async function startTestLabdata(options: LabdataEmulatorOptions = {}): Promise<LabdataEmulator> {
  const emulator = await startLabdataEmulator({ ca: caPems(), ...options });
  if (options.demo !== false) demoOf(emulator);
  return emulator;
}

/** The repository emulator in its default dialect unless `options.dialect` says another. */
export function startTestProtocols(
  options: ProtocolsEmulatorOptions & { demo: false },
): Promise<ProtocolsEmulator>;
export function startTestProtocols(options?: ProtocolsEmulatorOptions): Promise<TestProtocols>;
export async function startTestProtocols(options: ProtocolsEmulatorOptions = {}): Promise<ProtocolsEmulator> {
  const emulator = await startProtocolsEmulator({ ca: caPems(), ...options });
  if (options.demo !== false) demoOf(emulator);
  return emulator;
}

export function startTestIdp(): Promise<IdentityProvider> {
  return startIdentityProvider({ ca: caPems() });
}

/** A lab platform emulator whose tenant "acme" trusts a fresh OpenID provider's ID tokens for `audience`. */
export interface LabdataWithIdp {
  emulator: LabdataEmulator;
  idp: IdentityProvider;
  /** The tenant's API root. */
  api: string;
  close(): Promise<void>;
}

/** Starts a LabdataWithIdp before the file's tests (a demo tenant, "acme") and stops it after. */
export function useLabdataWithIdp(audience: string): LabdataWithIdp {
  return useStarted("the lab data platform emulator and its OpenID provider", async () => {
    const [emulator, idp] = await Promise.all([startTestLabdata(), startTestIdp()]);
    emulator.admin.updateSettings("acme", { oidc: { configurationUrl: idp.configurationUrl, audience } });
    const close = async () => {
      await Promise.all([emulator.close(), idp.close()]);
    };
    return { emulator, idp, api: emulator.tenant("acme").apiUrl, close };
  });
}

export function useExampleEmulator(): ExampleEmulator {
  return useStarted("the example emulator", startTestExample);
}

export function useLabdataEmulator(options: LabdataEmulatorOptions & { demo: false }): LabdataEmulator;
export function useLabdataEmulator(options?: LabdataEmulatorOptions): TestLabdata;
export function useLabdataEmulator(options: LabdataEmulatorOptions = {}): LabdataEmulator {
  return useStarted("the lab data platform emulator", () => startTestLabdata(options));
}

export function useProtocolsEmulator(options: ProtocolsEmulatorOptions & { demo: false }): ProtocolsEmulator;
export function useProtocolsEmulator(options?: ProtocolsEmulatorOptions): TestProtocols;
export function useProtocolsEmulator(options: ProtocolsEmulatorOptions = {}): ProtocolsEmulator {
  return useStarted("the protocol repository emulator", () => startTestProtocols(options));
}

/** Settings that point example_mcp at an emulator. */
export function exampleEnv(
  emulator: ExampleEmulator,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { EXAMPLE_BASE_URL: emulator.url, EXAMPLE_API_KEY: emulator.apiKey, ...extra };
}
