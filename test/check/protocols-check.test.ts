// `protocols-mcp check` against the protocol repository emulator: the profile names who the token is,
// the address may carry /api/v3, and a wrong token is named with the setting to fix.
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type ProtocolsEmulator,
  startProtocolsEmulator,
} from "../../packages/emulators/src/protocols/index.js";
import { runBin } from "../support/bin-run.js";
import { testCa } from "../support/emulator.js";

let emulator: ProtocolsEmulator;
let good: Record<string, string>;

beforeAll(async () => {
  emulator = await startProtocolsEmulator({ ca: testCa() });
  if (!emulator.demo) throw new Error("no demo data");
  good = {
    PROTOCOLS_BASE_URL: emulator.url,
    PROTOCOLS_ACCESS_TOKEN: emulator.demo.clientAccessToken,
    NODE_EXTRA_CA_CERTS: testCa().caFile,
  };
});
afterAll(() => emulator?.close());

it("passes with a client token, naming the profile, and with the /api/v3 suffix", async () => {
  const result = await runBin("protocols-mcp", ["check"], {
    ...good,
    PROTOCOLS_BASE_URL: `${emulator.url}/api/v3/`,
  });
  expect(result.stdout).toMatch(/ok {4}credential +client token \(PROTOCOLS_ACCESS_TOKEN\) signs in as \S/);
  expect(result.stdout).toMatch(/ok {4}sample read +searched public protocols/);
  expect(result.stdout).toContain("All checks passed");
  expect(result.code).toBe(0);
});

it("names a wrong token and the setting to fix", async () => {
  const result = await runBin("protocols-mcp", ["check"], { ...good, PROTOCOLS_ACCESS_TOKEN: "not-a-token" });
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/FAIL {2}credential +Error: Invalid API authentication/);
  expect(result.stdout).toMatch(/fix: .*PROTOCOLS_ACCESS_TOKEN/);
});
