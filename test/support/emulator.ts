// Emulators for tests, signed by the run's CA so that every process of the run trusts them.
import { inject } from "vitest";
import { type ExampleEmulator, startExampleEmulator } from "../../packages/emulators/src/example/index.js";

export function testCa() {
  return inject("testCa");
}

export async function startTestExample(): Promise<ExampleEmulator> {
  const { certPem, keyPem } = testCa();
  return startExampleEmulator({ ca: { certPem, keyPem } });
}

/** Settings that point example_mcp at an emulator. */
export function exampleEnv(
  emulator: ExampleEmulator,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { EXAMPLE_BASE_URL: emulator.url, EXAMPLE_API_KEY: emulator.apiKey, ...extra };
}
