// The spec's states and transitions, row by row: users active or suspended, apps active or archived
// (unarchiving restores access), API keys existing or deleted, client secrets existing or deleted.
import { describe, expect, it } from "vitest";
import { demoOf, useLabdataWithIdp } from "../../support/emulator.js";
import { accessToken, basic, bearer, expectError, fetchReply } from "../../support/labdata-http.js";

const AUDIENCE = "labdata-acme";
const lab = useLabdataWithIdp(AUDIENCE);

const me = (authorization: string) => fetchReply(`${lab.api}/users/me`, { authorization });
const token = (clientId: string, clientSecret: string) =>
  fetchReply(`${lab.api}/token`, {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });

describe("labdata states: users", () => {
  it("a suspended user has no API access by API key or ID token; reactivating restores it", async () => {
    const user = lab.emulator.admin.createUser("acme", {
      name: "Rosa Klein",
      email: "rosa.klein@acme.example",
    });
    const { key } = lab.emulator.admin.createApiKey("acme", { userId: user.id });
    const idToken = await lab.idp.mintIdToken({ email: user.email, audience: AUDIENCE });
    expect((await me(basic(key))).status).toBe(200);
    expect((await me(bearer(idToken))).status).toBe(200);

    lab.emulator.admin.updateUser("acme", user.id, { status: "suspended" });
    for (const authorization of [basic(key), bearer(idToken)]) {
      const reply = await me(authorization);
      expectError(reply, 401, "authentication_error");
      expect(reply.body.error.message).toMatch(/suspended user$/);
    }
    expect((await fetchReply(`${lab.api}/dna-sequences`, { authorization: basic(key) })).status).toBe(401);

    lab.emulator.admin.updateUser("acme", user.id, { status: "active" });
    expect((await me(basic(key))).status).toBe(200);
    expect((await me(bearer(idToken))).status).toBe(200);
  });

  it("the demo's suspended user is refused", async () => {
    expect((await me(basic(demoOf(lab.emulator).suspended.apiKey))).status).toBe(401);
  });
});

describe("labdata states: apps", () => {
  it("an archived app has no API access: its tokens and new token requests fail; unarchiving restores access", async () => {
    const created = lab.emulator.admin.createApp("acme", { name: "Archive Probe" });
    const before = await accessToken(lab.api, created.clientId, created.clientSecret);
    expect((await me(bearer(before))).status).toBe(200);

    lab.emulator.admin.archiveApp("acme", created.app.id);
    expect((await me(bearer(before))).status).toBe(401);
    const refused = await token(created.clientId, created.clientSecret);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      error: { message: "The app is archived", type: "invalid_client", userMessage: "The app is archived" },
    });

    lab.emulator.admin.unarchiveApp("acme", created.app.id);
    const after = await accessToken(lab.api, created.clientId, created.clientSecret);
    expect((await me(bearer(after))).status).toBe(200);
    // Archiving revoked the tokens issued before it; they stay dead.
    expect((await me(bearer(before))).status).toBe(401);
  });
});

describe("labdata states: API keys", () => {
  it("an API key is shown once at creation and no longer authenticates once deleted", async () => {
    const { reader } = demoOf(lab.emulator);
    const created = lab.emulator.admin.createApiKey("acme", { userId: reader.id });
    const listed = lab.emulator.admin.listApiKeys("acme", reader.id);
    expect(listed.map((k) => k.id)).toContain(created.id);
    expect(Object.keys(listed[0] ?? {}).sort()).toEqual(["createdAt", "id", "userId"]);
    expect((await me(basic(created.key))).status).toBe(200);

    lab.emulator.admin.deleteApiKey("acme", created.id);
    expectError(await me(basic(created.key)), 401, "authentication_error");
    expect(lab.emulator.admin.listApiKeys("acme", reader.id).map((k) => k.id)).not.toContain(created.id);
  });
});

describe("labdata states: client secrets", () => {
  it("a new secret works beside the old until the old is deleted; then the old no longer authenticates", async () => {
    const created = lab.emulator.admin.createApp("acme", { name: "Rotation Probe" });
    const second = lab.emulator.admin.addAppSecret("acme", created.app.id);
    expect(second.secret).toMatch(/^cs_/);
    expect(second.secret).not.toBe(created.clientSecret);
    expect((await token(created.clientId, created.clientSecret)).status).toBe(200);
    expect((await token(created.clientId, second.secret)).status).toBe(200);

    lab.emulator.admin.deleteAppSecret("acme", created.app.id, created.secretId);
    const old = await token(created.clientId, created.clientSecret);
    expect(old.status).toBe(401);
    expect(old.body.error.type).toBe("invalid_client");
    const fresh = await accessToken(lab.api, created.clientId, second.secret);
    expect((await me(bearer(fresh))).status).toBe(200);
    expect(
      lab.emulator.admin
        .listApps("acme")
        .find((a) => a.id === created.app.id)
        ?.secrets.map((s) => s.id),
    ).toEqual([second.id]);
  });
});
