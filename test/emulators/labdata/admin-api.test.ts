// The HTTP admin API under /_admin: its own secret (never a tenant credential, and never one itself),
// and every operation the in-process handle has, as the README's walkthrough uses them.
import { beforeAll, describe, expect, it } from "vitest";
import { useLabdataEmulator } from "../../support/emulator.js";
import {
  accessToken,
  basic,
  bearer,
  expectError,
  fetchReply,
  type Reply,
} from "../../support/labdata-http.js";

const emulator = useLabdataEmulator({ demo: false });
let adminUrl: string;

beforeAll(async () => {
  adminUrl = `${emulator.url}/_admin`;
});

function admin(method: string, path: string, json?: unknown, secret = emulator.adminSecret): Promise<Reply> {
  return fetchReply(`${adminUrl}${path}`, { method, json, authorization: bearer(secret) });
}

async function ok(method: string, path: string, json?: unknown, status = method === "POST" ? 201 : 200) {
  const reply = await admin(method, path, json);
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
  return reply.body;
}

describe("labdata admin API: access", () => {
  it("needs the admin secret; a tenant credential or nothing is a 401", async () => {
    await ok("POST", "/tenants", { name: "access-check" });
    const user = await ok("POST", "/tenants/access-check/users", {
      name: "Key Holder",
      email: "holder@x.example",
    });
    const { key } = await ok("POST", "/tenants/access-check/api-keys", { userId: user.id });
    for (const secret of ["", "wrong-secret", key]) {
      expect((await admin("GET", "/tenants", undefined, secret)).status).toBe(401);
    }
    expect((await fetchReply(`${adminUrl}/tenants`, { authorization: basic(key) })).status).toBe(401);
    // And the admin secret is no tenant credential.
    const api = emulator.tenant("access-check").apiUrl;
    expectError(
      await fetchReply(`${api}/users/me`, { authorization: bearer(emulator.adminSecret) }),
      401,
      "authentication_error",
    );
    expectError(
      await fetchReply(`${api}/users/me`, { authorization: basic(emulator.adminSecret) }),
      401,
      "authentication_error",
    );
    expect((await fetchReply(`${api}/users/me`, { authorization: basic(key) })).status).toBe(200);
  });

  it("answers 400, 404, 405 and 409 with what is wrong", async () => {
    expect((await admin("POST", "/tenants", { name: "Bad Name" })).status).toBe(400);
    expect((await admin("POST", "/tenants", { name: "dup" })).status).toBe(201);
    const dup = await admin("POST", "/tenants", { name: "dup" });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "conflict", message: "tenant 'dup' exists" });
    expect((await admin("GET", "/tenants/nowhere/users")).status).toBe(404);
    expect((await admin("POST", "/tenants/dup/users", { name: "No Email" })).body.error).toBe(
      "invalid_request",
    );
    const method = await admin("DELETE", "/tenants");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET, POST");
    expect((await admin("GET", "/nothing-here")).status).toBe(404);
    const notJson = await fetchReply(`${adminUrl}/tenants`, {
      authorization: bearer(emulator.adminSecret),
      body: "{",
    });
    expect(notJson.status).toBe(400);
  });
});

describe("labdata admin API: a tenant from scratch", () => {
  it("creates a user and an API key, grants a folder, and the key lists sequences there", async () => {
    await ok("POST", "/tenants", { name: "lab" });
    const user = await ok("POST", "/tenants/lab/users", { name: "Grace Hopper", email: "grace@lab.example" });
    expect(user).toMatchObject({ name: "Grace Hopper", handle: "ghopper", kind: "person", status: "active" });
    const key = await ok("POST", "/tenants/lab/api-keys", { userId: user.id });
    expect(key.key).toMatch(/^sk_/);
    const keys = await ok("GET", `/tenants/lab/api-keys?userId=${user.id}`);
    expect(keys.apiKeys).toEqual([{ id: key.id, userId: user.id, createdAt: key.createdAt }]);

    const org = await ok("POST", "/tenants/lab/organizations", { name: "Lab Org" });
    const team = await ok("POST", "/tenants/lab/teams", { name: "Bench", organizationId: org.id });
    const project = await ok("POST", "/tenants/lab/projects", { name: "Vectors", ownerId: team.id });
    const folder = await ok("POST", "/tenants/lab/folders", { name: "Inbox", projectId: project.id });
    const seeded = await ok("POST", "/tenants/lab/dna-sequences/seed", {
      folderId: folder.id,
      count: 12,
      seed: 3,
    });
    expect(seeded.ids).toHaveLength(12);
    const one = await ok("POST", "/tenants/lab/dna-sequences", {
      name: "pGH-1",
      bases: "ACGTTGCA",
      isCircular: true,
      folderId: folder.id,
      creatorId: user.id,
    });
    await ok("POST", `/tenants/lab/dna-sequences/${one.id}/archive`, { reason: "Retired" }, 200);

    const api = emulator.tenant("lab").apiUrl;
    const auth = basic(key.key);
    expectError(
      await fetchReply(`${api}/dna-sequences?folderId=${folder.id}`, { authorization: auth }),
      403,
      "permission_error",
    );
    await ok("PUT", "/tenants/lab/memberships", { userId: user.id, resourceId: team.id, role: "read" });
    const listed = await fetchReply(`${api}/dna-sequences?folderId=${folder.id}`, { authorization: auth });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("result-count")).toBe("12");
    const any = await fetchReply(`${api}/dna-sequences?archiveReason=ANY`, { authorization: auth });
    expect(any.headers.get("result-count")).toBe("13");
    await ok("POST", `/tenants/lab/dna-sequences/${one.id}/unarchive`, undefined, 200);

    expect((await ok("GET", "/tenants/lab/memberships")).memberships).toEqual([
      { userId: user.id, resourceId: team.id, role: "read" },
    ]);
    expect((await admin("DELETE", `/tenants/lab/memberships/${user.id}/${team.id}`)).status).toBe(204);
    expect(
      (await fetchReply(`${api}/dna-sequences?folderId=${folder.id}`, { authorization: auth })).status,
    ).toBe(403);
    for (const list of ["organizations", "teams", "projects", "folders", "users"]) {
      expect((await ok("GET", `/tenants/lab/${list}`))[list]).toHaveLength(1);
    }

    await ok("PATCH", `/tenants/lab/users/${user.id}`, { status: "suspended" });
    expect((await fetchReply(`${api}/users/me`, { authorization: auth })).status).toBe(401);
    await ok("PATCH", `/tenants/lab/users/${user.id}`, { status: "active" });
    expect((await admin("DELETE", `/tenants/lab/api-keys/${key.id}`)).status).toBe(204);
    expect((await fetchReply(`${api}/users/me`, { authorization: auth })).status).toBe(401);
  });

  it("manages apps, their secrets and grants", async () => {
    await ok("POST", "/tenants", { name: "apps" });
    const org = await ok("POST", "/tenants/apps/organizations", { name: "Apps Org" });
    const created = await ok("POST", "/tenants/apps/apps", { name: "Robot" });
    expect(created).toMatchObject({ app: { name: "Robot", status: "active" } });
    const api = emulator.tenant("apps").apiUrl;
    const token = await accessToken(api, created.clientId, created.clientSecret);
    expect((await fetchReply(`${api}/users/me`, { authorization: bearer(token) })).body.email).toBe(
      "robot@apps.apps.example",
    );

    const grant = await ok("PUT", "/tenants/apps/app-grants", {
      appId: created.app.id,
      resourceId: org.id,
      role: "read",
    });
    expect(grant).toEqual({ appId: created.app.id, resourceId: org.id, role: "read" });
    expect((await ok("GET", "/tenants/apps/app-grants")).appGrants).toEqual([grant]);
    expect((await admin("DELETE", `/tenants/apps/app-grants/${created.app.id}/${org.id}`)).status).toBe(204);

    const secret = await ok("POST", `/tenants/apps/apps/${created.app.id}/secrets`);
    expect(
      (await admin("DELETE", `/tenants/apps/apps/${created.app.id}/secrets/${created.secretId}`)).status,
    ).toBe(204);
    expect((await ok("GET", "/tenants/apps/apps")).apps[0].secrets).toEqual([
      { id: secret.id, createdAt: secret.createdAt },
    ]);
    expect(JSON.stringify(await ok("GET", "/tenants/apps/apps"))).not.toContain(secret.secret);

    expect((await ok("POST", `/tenants/apps/apps/${created.app.id}/archive`, undefined, 200)).status).toBe(
      "archived",
    );
    expect((await fetchReply(`${api}/users/me`, { authorization: bearer(token) })).status).toBe(401);
    expect((await ok("POST", `/tenants/apps/apps/${created.app.id}/unarchive`, undefined, 200)).status).toBe(
      "active",
    );
    expect(await accessToken(api, created.clientId, secret.secret)).toMatch(/^at_/);
  });

  it("reads and changes settings, the audit log, the request log, the clock and faults", async () => {
    await ok("POST", "/tenants", { name: "ops", settings: { rateLimit: { requests: 2, windowMs: 60_000 } } });
    const user = await ok("POST", "/tenants/ops/users", { name: "Op Erator", email: "op@ops.example" });
    const { key } = await ok("POST", "/tenants/ops/api-keys", { userId: user.id });
    const api = emulator.tenant("ops").apiUrl;
    const me = () => fetchReply(`${api}/users/me`, { authorization: basic(key) });

    expect(await ok("GET", "/tenants/ops/settings")).toEqual({
      rateLimit: { requests: 2, windowMs: 60_000 },
      ipAllowlist: [],
      oidc: null,
      accessTokenLifetimeSec: 3600,
    });
    await me();
    await me();
    expect((await me()).status).toBe(429);
    const clock = await ok("POST", "/clock", { advanceMs: 60_000 }, 200);
    expect(Date.parse(clock.now)).toBeGreaterThan(Date.now() + 59_000);
    expect((await me()).status).toBe(200);
    const lifted = await ok("PATCH", "/tenants/ops/settings", {
      rateLimit: null,
      accessTokenLifetimeSec: 120,
    });
    expect(lifted).toMatchObject({ rateLimit: null, accessTokenLifetimeSec: 120 });
    expect(
      (await admin("PATCH", "/tenants/ops/settings", { rateLimit: { requests: 0, windowMs: 1 } })).status,
    ).toBe(400);
    expect(
      (
        await admin("PATCH", "/tenants/ops/settings", {
          oidc: { configurationUrl: "http://idp", audience: "x" },
        })
      ).status,
    ).toBe(400);

    const audit = await ok("GET", "/tenants/ops/audit-log?limit=2");
    expect(audit.count).toBe(2);
    expect(audit.entries[1]).toMatchObject({
      action: "user.me",
      actorUserId: user.id,
      authMethod: "api_key",
      status: 200,
    });
    expect((await admin("DELETE", "/tenants/ops/audit-log")).status).toBe(204);
    expect((await ok("GET", "/tenants/ops/audit-log")).count).toBe(0);

    const requests = await ok("GET", "/requests");
    expect(requests.count).toBeGreaterThan(0);
    expect(JSON.stringify(requests)).not.toContain(key);

    await ok("POST", "/faults", { fault: { kind: "status", status: 503 }, path: "/ops/", times: 1 });
    expect((await me()).status).toBe(503);
    expect((await me()).status).toBe(200);
  });

  it("offers the same operations in process", () => {
    const tenant = emulator.admin.createTenant({ name: "inproc" });
    expect(tenant.apiUrl).toBe(`${emulator.url}/inproc/api/v2`);
    const user = emulator.admin.createUser("inproc", { name: "In Proc", email: "in@proc.example" });
    expect(emulator.admin.listUsers("inproc")).toEqual([user]);
    expect(() => emulator.admin.createUser("inproc", { name: "Again", email: "IN@proc.example" })).toThrow(
      /taken/,
    );
    expect(Math.abs(emulator.admin.now().getTime() - emulator.clock.now())).toBeLessThan(1000);
  });
});
