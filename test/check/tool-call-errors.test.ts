// The classification reaches tool calls: the conventions' exact text with a type name that tells the
// cause, one stderr line with the cause and the remedy, and the call log's error kind.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type LabdataEmulator, startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { closedPort } from "../support/bin-run.js";
import { callOnceOverStdio } from "../support/clients.js";
import { testCa } from "../support/emulator.js";

let emulator: LabdataEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startLabdataEmulator({ ca: testCa() });
  if (!emulator.demo) throw new Error("no demo data");
  env = {
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_API_KEY: emulator.demo.user.apiKey,
    MCP_LOG_CALLS: "true",
  };
});
afterAll(() => emulator?.close());

const call = (extra: Record<string, string>) =>
  callOnceOverStdio("labdata-mcp", { ...env, ...extra }, "labdata_get_current_user");

it("an untrusted certificate is a CertificateError, with NODE_EXTRA_CA_CERTS on stderr", async () => {
  const result = await call({ NODE_EXTRA_CA_CERTS: "" });
  expect(result.text).toBe("Error: Unexpected error occurred: CertificateError");
  expect(result.stderr).toMatch(
    /CertificateError: the certificate of 127\.0\.0\.1:\d+ is not trusted .*NODE_EXTRA_CA_CERTS/,
  );
  expect(result.stderr).toContain('"error":"certificate_untrusted"');
  expect(result.stderr.split("\n").filter((line) => line.includes("CertificateError"))).toHaveLength(1);
});

it("a refused port is a ConnectionRefusedError", async () => {
  const result = await call({ LABDATA_BASE_URL: `https://127.0.0.1:${await closedPort()}/acme` });
  expect(result.text).toBe("Error: Unexpected error occurred: ConnectionRefusedError");
  expect(result.stderr).toContain('"error":"connection_refused"');
});

it("the address with /api/v2/ reaches the same API", async () => {
  const result = await call({ LABDATA_BASE_URL: `${env.LABDATA_BASE_URL}/api/v2/` });
  expect(result.isError).toBe(false);
  expect(result.text).toContain("# Signed in to the lab data platform");
});
