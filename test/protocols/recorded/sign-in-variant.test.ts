// protocols_sign_in against a repository that reads only `redirect_url` on its authorize page, as its
// documents say (fact sheet 2.1), sends the browser back with `code` and `scope` (state echoed:
// assumed), and answers the code exchange with the token answer of 2.2 (expires_in a string).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../../packages/lab-mcp/src/services/protocols/index.js";
import { callText, connectInMemory } from "../../support/clients.js";
import { freePort } from "../../support/ports.js";

import { OAUTH_APP } from "./connect.js";
import { type FakeRepository, startFakeRepository } from "./fake-repository.js";
import { tokenAnswer } from "./fixtures.js";

let fake: FakeRepository;

beforeAll(async () => {
  fake = await startFakeRepository();
});

afterAll(async () => {
  await fake?.close();
});

describe("protocols_sign_in with the repository's documented OAuth dialect", () => {
  it("is sent back through redirect_url, exchanges the code and stores the string expires_in", async () => {
    fake.on("authorize", (request) => {
      if (!request.query.redirect_url) {
        return { status: 400, body: { status_code: 1, error_message: "Missing or empty parameters" } };
      }
      const back = new URL(request.query.redirect_url);
      back.searchParams.set("code", "code-from-the-repository");
      back.searchParams.set("scope", "readwrite");
      back.searchParams.set("state", request.query.state ?? "");
      return { status: 302, headers: { location: back.toString() }, body: "" };
    });
    fake.on("token", (request) =>
      request.form.grant_type === "authorization_code" && request.form.code === "code-from-the-repository"
        ? { body: tokenAnswer("signed-in-access", "signed-in-refresh") }
        : { status: 400, body: { status_code: 1, error_message: "Missing or empty parameters" } },
    );
    fake.on("profile", {
      body: { user: { username: "ann-lee", name: "Ann Lee", affiliation: null }, status_code: 0 },
    });

    const dir = mkdtempSync(join(tmpdir(), "protocols-recorded-"));
    const tokenFile = join(dir, "tokens.json");
    const connection = await connectInMemory(
      protocolsService,
      {
        PROTOCOLS_BASE_URL: fake.baseUrl,
        PROTOCOLS_CLIENT_ID: OAUTH_APP.clientId,
        PROTOCOLS_CLIENT_SECRET: OAUTH_APP.clientSecret,
        PROTOCOLS_REDIRECT_URI: `http://127.0.0.1:${await freePort()}/callback`,
        PROTOCOLS_TOKEN_FILE: tokenFile,
        PROTOCOLS_DOWNLOAD_DIR: join(dir, "downloads"),
      },
      { elicitation: { url: {} } },
    );
    const visits: number[] = [];
    // The user's browser: opens the authorize URL (declining when the repository shows no redirect) and
    // follows the redirect to the listener.
    connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const { url } = request.params as { url: string };
      const page = await fetch(url, { redirect: "manual" });
      const location = page.headers.get("location");
      if (page.status !== 302 || !location) return { action: "decline" };
      setTimeout(async () => {
        visits.push((await fetch(location, { redirect: "manual" })).status);
      }, 5);
      return { action: "accept" };
    });
    try {
      const before = Math.floor(Date.now() / 1000);
      const result = await callText(connection, "protocols_sign_in");
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(/^Signed in to the protocol repository as Ann Lee \(ann-lee\)\. /);
      expect(visits).toEqual([200]);
      const stored = JSON.parse(readFileSync(tokenFile, "utf8"));
      expect(stored).toMatchObject({ access_token: "signed-in-access", refresh_token: "signed-in-refresh" });
      expect(stored.expires_at - before).toBeGreaterThanOrEqual(30681976);
      expect(fake.seen.find((r) => r.route === "profile")?.authorization).toBe("Bearer signed-in-access");
    } finally {
      await connection.close();
    }
  });
});
