// Settings of labdata_mcp against the lab data platform emulator's demo data, and what it served.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DemoData, DemoUser, LabdataEmulator } from "../../packages/emulators/src/labdata/index.js";

/**
 * Settings of labdata_mcp for a demo user's API key; credentials file in a fresh temp folder; every
 * toolset (the tests reach past the default ones; test/labdata/toolsets.test.ts holds the default).
 */
export function apiKeyEnv(demo: DemoData, user: DemoUser = demo.user, extra: Record<string, string> = {}) {
  return {
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: demo.baseUrl,
    LABDATA_API_KEY: user.apiKey,
    LABDATA_CREDENTIALS_FILE: join(mkdtempSync(join(tmpdir(), "labdata-creds-")), "labdata.json"),
    ...extra,
  };
}

/** How many requests the emulator served whose path ends with `suffix`. */
export function servedEndingWith(emulator: LabdataEmulator, suffix: string): number {
  return emulator.requests.entries().filter((entry) => entry.path.endsWith(suffix)).length;
}
