// Core pieces protocols_mcp stands on: atomic private JSON files, the remote's error body on
// RemoteStatusError, the refused request's Authorization handed to renewAfterUnauthorized.
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RemoteStatusError } from "../../packages/lab-mcp/src/core/errors.js";
import { apiPath } from "../../packages/lab-mcp/src/core/http/api-path.js";
import type { AuthStrategy } from "../../packages/lab-mcp/src/core/http/auth.js";
import { noAuth } from "../../packages/lab-mcp/src/core/http/auth.js";
import { RemoteClient } from "../../packages/lab-mcp/src/core/http/remote-client.js";
import { readJsonIfPresent, writePrivateJson } from "../../packages/lab-mcp/src/core/start/user-config.js";
import { useProtocolsEmulator } from "../support/emulator.js";

const emulator = useProtocolsEmulator();
beforeAll(async () => {
  // RemoteClient's own 401 path is under test: the repository answers a bad token with HTTP 401 here
  // (the recorded HTTP 400 + 1218 is the protocols client's business, tested in recorded/).
  emulator.admin.updateDialect({ authErrors: "http401" });
});

describe("writePrivateJson", () => {
  it("replaces a file whole, with mode 0600 even over a file that had another, and leaves no temp file", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "private-json-")), "lab-mcp");
    const file = join(dir, "tokens.json");
    await writePrivateJson(file, { n: 1 });
    writeFileSync(file, "{}", { mode: 0o644 });
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => writePrivateJson(file, { n, pad: "x".repeat(10_000) })),
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(((await readJsonIfPresent(file)) as { pad: string }).pad).toHaveLength(10_000);
    expect(readdirSync(dir)).toEqual(["tokens.json"]);
  });
});

describe("RemoteClient", () => {
  it("keeps the remote's error body on RemoteStatusError (never in the text an agent reads)", async () => {
    const client = new RemoteClient({ baseUrl: emulator.url, auth: noAuth });
    const refused = await client
      .request({
        method: "POST",
        path: apiPath`api/v3/oauth/token`,
        body: new URLSearchParams({ grant_type: "x" }),
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RemoteStatusError);
    expect((refused as RemoteStatusError).status).toBe(401);
    expect((refused as RemoteStatusError).body).toEqual({
      error: "invalid_client",
      error_description: "Client authentication needs client_id and client_secret.",
    });
  });

  it("tells renewAfterUnauthorized which Authorization the refused request carried", async () => {
    let token = "not-valid";
    const seen: Array<string | null | undefined> = [];
    const auth: AuthStrategy = {
      authorize(headers) {
        headers.set("authorization", `Bearer ${token}`);
      },
      async renewAfterUnauthorized(_signal, sent) {
        seen.push(sent);
        token = emulator.demo.clientAccessToken;
        return true;
      },
    };
    const client = new RemoteClient({ baseUrl: emulator.url, auth });
    const { status } = await client.request({ path: apiPath`api/v3/session/profile` });
    expect(status).toBe(200);
    expect(seen).toEqual(["Bearer not-valid"]);
  });
});
