// The lab data platform emulator for labdata_mcp tests, signed by the run's CA, with its demo data.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DemoData, DemoUser } from "../../packages/emulators/src/labdata/index.js";
import { type LabdataEmulator, startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { testCa } from "../support/emulator.js";

export async function startTestLabdata(): Promise<LabdataEmulator & { demo: DemoData }> {
  const emulator = await startLabdataEmulator({ ca: testCa() });
  if (!emulator.demo) throw new Error("the emulator started without demo data");
  return emulator as LabdataEmulator & { demo: DemoData };
}

/** Settings of labdata_mcp for a demo user's API key; credentials file in a fresh temp folder. */
export function apiKeyEnv(demo: DemoData, user: DemoUser = demo.user, extra: Record<string, string> = {}) {
  return {
    LABDATA_BASE_URL: demo.baseUrl,
    LABDATA_API_KEY: user.apiKey,
    LABDATA_CREDENTIALS_FILE: join(mkdtempSync(join(tmpdir(), "labdata-creds-")), "labdata.json"),
    ...extra,
  };
}

/** How many requests the emulator served whose path ends with `suffix`. */
export function served(emulator: LabdataEmulator, suffix: string): number {
  return emulator.requests.entries().filter((entry) => entry.path.endsWith(suffix)).length;
}
