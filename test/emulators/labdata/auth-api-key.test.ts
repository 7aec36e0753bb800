// API keys: the key as the Basic username with an empty password; every way such a header can be
// missing, malformed, unknown or dead is a 401 that never repeats the key.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { basic, expectError, fetchReply } from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let api: string;

beforeAll(async () => {
  api = emulator.tenant("acme").apiUrl;
});

const me = (authorization?: string, headers: Record<string, string> = {}) =>
  fetchReply(`${api}/users/me`, { authorization, headers });

describe("labdata auth: API key", () => {
  it("authenticates the key's owner as Basic username with an empty password", async () => {
    const { user } = demoOf(emulator);
    const reply = await me(basic(user.apiKey));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id: user.id,
      name: "Mira Patel",
      email: "mira.patel@acme.example",
      handle: user.handle,
    });
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("accepts the scheme in any case, as HTTP allows", async () => {
    const header = basic(demoOf(emulator).user.apiKey).replace("Basic", "bAsIc");
    expect((await me(header)).status).toBe(200);
  });

  it("answers 401 with the error body and WWW-Authenticate when the header is missing", async () => {
    const reply = await me();
    expectError(reply, 401, "authentication_error");
    expect(reply.body.error.message).toBe("Missing Authorization header");
    expect(reply.headers.get("www-authenticate")).toContain("Basic");
  });

  it("answers 401 to badly formatted headers", async () => {
    const key = demoOf(emulator).user.apiKey;
    const cases: Record<string, string> = {
      "scheme only": "Basic",
      "not base64": "Basic !!!not-base64!!!",
      "no colon": `Basic ${Buffer.from(key).toString("base64")}`,
      "empty username": basic(""),
      "non-empty password": basic(key, "secret"),
      "two values": `Basic ${Buffer.from(`${key}:`).toString("base64")} extra`,
      "unknown scheme": `Token ${key}`,
      "empty bearer": "Bearer ",
    };
    for (const [name, header] of Object.entries(cases)) {
      const reply = await me(header);
      expectError(reply, 401, "authentication_error");
      expect(reply.text, name).not.toContain(key);
    }
    const password = await me(basic(key, "secret"));
    expect(password.body.error.message).toContain("password must be empty");
  });

  it("answers 401 to an unknown key and never echoes it in the body or headers", async () => {
    const wrong = "sk_this_is_not_a_key_of_this_tenant_0123456789";
    const reply = await me(basic(wrong));
    expectError(reply, 401, "authentication_error");
    expect(reply.body.error.message).toBe("Invalid API key");
    expect(reply.text).not.toContain(wrong);
    expect(JSON.stringify([...reply.headers])).not.toContain(wrong);
  });

  it("shows a new key once; it works beside the old one until the old one is deleted (rotation)", async () => {
    const { user } = demoOf(emulator);
    const created = emulator.admin.createApiKey("acme", { userId: user.id });
    expect(created.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(emulator.admin.listApiKeys("acme", user.id))).not.toContain(created.key);

    const old = emulator.admin.listApiKeys("acme", user.id).find((k) => k.id !== created.id);
    if (!old) throw new Error("the demo user has a key");
    expect((await me(basic(created.key))).status).toBe(200);
    expect((await me(basic(user.apiKey))).status).toBe(200);

    emulator.admin.deleteApiKey("acme", old.id);
    const dead = await me(basic(user.apiKey));
    expectError(dead, 401, "authentication_error");
    expect(dead.body.error.message).toBe("Invalid API key");
    expect((await me(basic(created.key))).status).toBe(200);
  });

  it("attributes calls to the key's owner, whichever of the owner's keys is used", async () => {
    const { colleague } = demoOf(emulator);
    const second = emulator.admin.createApiKey("acme", { userId: colleague.id });
    for (const key of [colleague.apiKey, second.key]) {
      expect((await me(basic(key))).body.id).toBe(colleague.id);
    }
  });
});
