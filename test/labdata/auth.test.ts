// The three authentication methods of labdata_mcp, chosen by settings, against the emulator.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { ConfigError } from "../../packages/lab-mcp/src/core/start/config.js";
import { prepare } from "../../packages/lab-mcp/src/core/start/run.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { connectInMemory, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { servedEndingWith } from "../support/labdata.js";

const AUDIENCE = "lab-mcp-tests";
const emulator = useLabdataEmulator();
let idp: IdentityProvider;
const whoAmI = async (env: Record<string, string>) => {
  const connection = await connectInMemory(labdataService, env);
  try {
    return textOf(await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }));
  } finally {
    await connection.close();
  }
};

beforeAll(async () => {
  idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  emulator.admin.updateSettings(emulator.demo.tenant, {
    oidc: { configurationUrl: idp.configurationUrl, audience: AUDIENCE },
  });
});
afterAll(async () => {
  await idp.close();
});

describe("settings", () => {
  const base = () => ({ LABDATA_BASE_URL: emulator.demo.baseUrl });
  it.each([
    [
      { LABDATA_API_KEY: "k", LABDATA_CLIENT_ID: "c", LABDATA_CLIENT_SECRET: "s" },
      /Two authentication methods/,
    ],
    [{ LABDATA_API_KEY: "k", LABDATA_ID_TOKEN: "t" }, /Two authentication methods/],
    [{ LABDATA_CLIENT_ID: "c" }, /LABDATA_CLIENT_ID and LABDATA_CLIENT_SECRET go together/],
    [{ LABDATA_ID_TOKEN: "t", LABDATA_ID_TOKEN_FILE: "/tmp/x" }, /not both/],
    [{ LABDATA_BASE_URL: "http://127.0.0.1/acme", LABDATA_API_KEY: "k" }, /https/],
  ])("refuses %j at start-up", (env, message) => {
    expect(() => prepare(labdataService, [], { ...base(), ...env })).toThrow(ConfigError);
    expect(() => prepare(labdataService, [], { ...base(), ...env })).toThrow(message);
  });
});

describe("API key", () => {
  it("signs in as the key's owner", async () => {
    const { user, baseUrl } = emulator.demo;
    const { text } = await whoAmI({ LABDATA_BASE_URL: baseUrl, LABDATA_API_KEY: user.apiKey });
    expect(text).toContain(`- **User**: ${user.name} (${user.id})`);
    expect(text).toContain("- **Authentication**: API key (HTTP Basic)");
  });

  it.each(["a wrong key", "a suspended user's key", "another tenant's key"])(
    "reports 401 for %s",
    async (which) => {
      const { demo } = emulator;
      const key =
        which === "a wrong key"
          ? "not-a-key"
          : which === "a suspended user's key"
            ? demo.suspended.apiKey
            : demo.globex.user.apiKey;
      expect(await whoAmI({ LABDATA_BASE_URL: demo.baseUrl, LABDATA_API_KEY: key })).toEqual({
        text: "Error: Invalid API authentication",
        isError: true,
      });
    },
  );
});

describe("OAuth client credentials", () => {
  const env = () => ({
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_CLIENT_ID: emulator.demo.app.clientId,
    LABDATA_CLIENT_SECRET: emulator.demo.app.clientSecret,
  });

  it("signs in as the app, with one token request shared by concurrent calls", async () => {
    emulator.requests.clear();
    const connection = await connectInMemory(labdataService, env());
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }),
      ),
    );
    for (const result of results) expect(textOf(result).text).toContain("OAuth 2.0 client credentials (app)");
    expect(textOf(results[0]).text).toContain(`(${emulator.demo.app.serviceUserId})`);
    expect(servedEndingWith(emulator, "/api/v2/token")).toBe(1);
    await connection.close();
  });

  it("gets a new token once after a 401 (the token expired on the platform's clock)", async () => {
    const connection = await connectInMemory(labdataService, env());
    const call = () => connection.client.callTool({ name: "labdata_list_projects", arguments: {} });
    expect(textOf(await call()).isError).toBe(false);
    emulator.requests.clear();
    emulator.clock.advance(2 * 3600 * 1000);
    expect(textOf(await call()).isError).toBe(false);
    expect(servedEndingWith(emulator, "/api/v2/token")).toBe(1);
    expect(servedEndingWith(emulator, "/api/v2/projects")).toBe(2); // the refused one and the retry
    await connection.close();
  });

  it("renews the token before expires_in runs out, without a 401", async () => {
    const { tenant } = emulator.demo;
    emulator.admin.updateSettings(tenant, { accessTokenLifetimeSec: 2 });
    try {
      const connection = await connectInMemory(labdataService, env());
      const call = () => connection.client.callTool({ name: "labdata_list_projects", arguments: {} });
      emulator.requests.clear();
      await call();
      await delay(2100);
      await call();
      expect(servedEndingWith(emulator, "/api/v2/token")).toBe(2);
      expect(servedEndingWith(emulator, "/api/v2/projects")).toBe(2);
      await connection.close();
    } finally {
      emulator.admin.updateSettings(tenant, { accessTokenLifetimeSec: 3600 });
    }
  });

  it("reports 401 for a wrong secret and for an archived app", async () => {
    expect(await whoAmI({ ...env(), LABDATA_CLIENT_SECRET: "wrong" })).toEqual({
      text: "Error: Invalid API authentication",
      isError: true,
    });
    const { tenant, app } = emulator.demo;
    emulator.admin.archiveApp(tenant, app.id);
    try {
      expect((await whoAmI(env())).text).toBe("Error: Invalid API authentication");
    } finally {
      emulator.admin.unarchiveApp(tenant, app.id);
    }
    expect((await whoAmI(env())).isError).toBe(false);
  });
});

describe("OpenID Connect", () => {
  const base = () => ({ LABDATA_BASE_URL: emulator.demo.baseUrl });

  it("signs in as the user whose email the ID token carries", async () => {
    const token = await idp.mintIdToken({ email: emulator.demo.user.email, audience: AUDIENCE });
    const { text } = await whoAmI({ ...base(), LABDATA_ID_TOKEN: token });
    expect(text).toContain(`- **User**: ${emulator.demo.user.name}`);
    expect(text).toContain("- **Authentication**: OpenID Connect ID token");
  });

  it("re-reads the token file on every use, so an outside refresher can rotate it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "labdata-idtoken-")), "id_token");
    const { user, colleague } = emulator.demo;
    writeFileSync(file, await idp.mintIdToken({ email: user.email, audience: AUDIENCE }));
    const connection = await connectInMemory(labdataService, { ...base(), LABDATA_ID_TOKEN_FILE: file });
    const call = async () =>
      textOf(await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }));
    expect((await call()).text).toContain(user.name);

    writeFileSync(file, await idp.mintIdToken({ email: colleague.email, audience: AUDIENCE }));
    expect((await call()).text).toContain(colleague.name);

    writeFileSync(file, await idp.mintIdToken({ email: user.email, audience: AUDIENCE, expiresInSec: -60 }));
    expect(await call()).toEqual({ text: "Error: Invalid API authentication", isError: true });

    writeFileSync(file, "");
    expect((await call()).text).toBe(
      "Error: LABDATA_ID_TOKEN_FILE is empty. Write a fresh ID token into it.",
    );
    await connection.close();
  });

  it("reports 401 for a token of another audience", async () => {
    const token = await idp.mintIdToken({ email: emulator.demo.user.email, audience: "someone-else" });
    expect((await whoAmI({ ...base(), LABDATA_ID_TOKEN: token })).text).toBe(
      "Error: Invalid API authentication",
    );
  });
});
