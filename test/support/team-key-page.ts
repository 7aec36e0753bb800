// A team server of labdata_mcp (MCP_AUTH_ISSUER) with its own client at the identity provider, as the
// key page needs, on a loopback public address, and a Chromium to open its pages: what the browser
// tests of the key page share. Started before the file's tests, stopped after them.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { launchChromium } from "./browser.js";
import { type HttpServerProcess, startHttpBin } from "./clients.js";
import { testCa, useLabdataEmulator } from "./emulator.js";
import { registerServerClient } from "./oauth-client.js";
import { freePort } from "./ports.js";

export interface TeamKeyPageServer {
  emulator: ReturnType<typeof useLabdataEmulator>;
  idp: IdentityProvider;
  browser: Browser;
  /** The server's public MCP address (the audience of its access tokens). */
  publicUrl: string;
}

export function useTeamKeyPageServer(): TeamKeyPageServer {
  const emulator = useLabdataEmulator();
  const team = { emulator } as TeamKeyPageServer;
  let server: HttpServerProcess | undefined;
  beforeAll(async () => {
    team.idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
    const port = await freePort();
    team.publicUrl = `http://127.0.0.1:${port}/mcp`;
    server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      MCP_AUTH_ISSUER: team.idp.issuer,
      MCP_AUTH_AUDIENCE: team.publicUrl,
      MCP_PORT: String(port),
      ...(await registerServerClient(team.idp, new URL(team.publicUrl).origin)),
    });
    team.browser = await launchChromium();
  });
  afterAll(async () => {
    await team.browser?.close();
    await server?.stop();
    await team.idp?.close();
  });
  return team;
}
