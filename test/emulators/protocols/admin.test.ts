// The admin API over HTTP: its own secret, users, client applications and their tokens, protocols,
// settings, and the shared clock, faults and request log; the same operations as the in-process handle.
import { describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { admin, api, LEGACY } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);

describe("admin API: access", () => {
  it("refuses every route without the admin secret, including to a valid access token", async () => {
    const token = demoOf(emulator).clientAccessToken;
    for (const [method, path] of [
      ["GET", "/users"],
      ["POST", "/users"],
      ["POST", "/applications"],
      ["POST", "/protocols"],
      ["GET", "/settings"],
      ["PATCH", "/settings"],
      ["POST", "/rate-limits/reset"],
      ["POST", "/clock"],
      ["GET", "/requests"],
    ] as const) {
      for (const secret of ["", "wrong", token]) {
        const body = method === "GET" ? undefined : { username: "intruder" };
        const reply = await admin(emulator, method, path, body, secret);
        expect(reply.status, `${method} ${path}`).toBe(401);
      }
    }
    expect(emulator.admin.listUsers().some((u) => u.username === "intruder")).toBe(false);
  });

  it("answers 404 to unknown admin routes and 405 to wrong methods", async () => {
    expect((await admin(emulator, "GET", "/nothing")).status).toBe(404);
    const wrong = await admin(emulator, "DELETE", "/users");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
  });
});

describe("admin API: users and applications", () => {
  it("creates a user who can then sign in, refusing duplicates and bad fields", async () => {
    const created = await admin<Record<string, string>>(emulator, "POST", "/users", {
      username: "new-scientist",
      name: "New Scientist",
      email: "new@lab.example",
      affiliation: "Test Institute",
      password: "correct horse",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      username: "new-scientist",
      name: "New Scientist",
      email: "new@lab.example",
      affiliation: "Test Institute",
      password: "correct horse",
    });
    const generated = await admin<{ password: string }>(emulator, "POST", "/users", {
      username: "gen-password",
    });
    expect(generated.body.password).toMatch(/^[A-Za-z0-9]{16}$/);

    const duplicate = await admin(emulator, "POST", "/users", { username: "NEW-scientist" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ error: "conflict", message: "username 'NEW-scientist' is taken" });
    const bad = await admin(emulator, "POST", "/users", { username: "x y" });
    expect(bad.status).toBe(400);
    expect(
      (await admin(emulator, "POST", "/users", { username: "ok-name", email: "not-an-email" })).status,
    ).toBe(400);
    expect((await admin(emulator, "POST", "/users", { username: "ok-name", role: "admin" })).status).toBe(
      400,
    );

    const listed = await admin<{ users: Record<string, string>[] }>(emulator, "GET", "/users");
    const mine = listed.body.users.find((u) => u.username === "new-scientist");
    expect(mine).toEqual({
      username: "new-scientist",
      name: "New Scientist",
      email: "new@lab.example",
      affiliation: "Test Institute",
    });
    expect(listed.text).not.toContain("correct horse");
  });

  it("registers an application and issues a client token for its owner", async () => {
    const created = await admin<Record<string, string>>(emulator, "POST", "/applications", {
      owner: "new-scientist",
      redirectUri: "https://tool.example/oauth/callback",
      name: "Tool",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      redirectUri: "https://tool.example/oauth/callback",
      name: "Tool",
      owner: "new-scientist",
    });
    expect(created.body.clientId).toMatch(/^pr_live_id_[0-9a-f]{32}$/);
    expect(created.body.clientSecret).toMatch(/^pr_live_sc_[0-9a-f]{32}$/);

    const issued = await admin<Record<string, string>>(
      emulator,
      "POST",
      `/applications/${created.body.clientId}/client-token`,
    );
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      tokenType: "Bearer",
      kind: "CLIENT_ACCESS_TOKEN",
      username: "new-scientist",
    });
    const profile = await api<{ user: { username: string } }>(
      emulator,
      "/api/v3/session/profile",
      issued.body.accessToken,
    );
    expect(profile.body.user.username).toBe("new-scientist");

    const listed = await admin<{ applications: Record<string, string>[] }>(emulator, "GET", "/applications");
    expect(listed.body.applications.find((a) => a.clientId === created.body.clientId)).toEqual({
      clientId: created.body.clientId,
      redirectUri: "https://tool.example/oauth/callback",
      name: "Tool",
      owner: "new-scientist",
    });
    expect(listed.text).not.toContain(created.body.clientSecret);
  });

  it("refuses applications with an unknown owner or a bad redirect URI, and tokens for unknown clients", async () => {
    const noOwner = await admin(emulator, "POST", "/applications", {
      owner: "nobody",
      redirectUri: "https://a.example/cb",
    });
    expect(noOwner.status).toBe(404);
    for (const redirectUri of [
      "/relative",
      "https://a.example/cb#frag",
      "javascript:alert(1)",
      "ftp://a.example/",
    ]) {
      const reply = await admin(emulator, "POST", "/applications", { owner: "new-scientist", redirectUri });
      expect(reply.status, redirectUri).toBe(400);
    }
    expect((await admin(emulator, "POST", "/applications/pr_live_id_nope/client-token")).status).toBe(404);
    expect((await admin(emulator, "POST", "/applications/%E0%A4%A/client-token")).status).toBe(404);
  });
});

describe("admin API: protocols", () => {
  it("creates public and private protocols that the API then serves as seeded", async () => {
    const created = await admin<{ id: number; uri: string; public: boolean; doi: string | null }>(
      emulator,
      "POST",
      "/protocols",
      {
        title: "Admin-made protocol",
        creator: "new-scientist",
        public: false,
        description: "Made through the admin API.",
        materials: [{ name: "PBS", vendor: "Gibco" }],
        steps: ["One.", { step: "Two.", section: "Main" }],
        authors: [
          { name: "New Scientist", affiliation: "Test Institute", username: "new-scientist" },
          { name: "Guest" },
        ],
        createdOn: 1_700_000_000,
        versionCount: 2,
        stats: { views: 12 },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      public: false,
      doi: null,
      created_on: 1_700_000_000,
      version_id: 2,
      materials: [{ name: "PBS", vendor: "Gibco", sku: "" }],
      authors: [
        { name: "New Scientist", affiliation: "Test Institute", username: "new-scientist" },
        { name: "Guest", affiliation: "", username: null },
      ],
      stats: { number_of_views: 12, number_of_steps: 2 },
    });
    const client = emulator.admin.createApplication({
      owner: "new-scientist",
      redirectUri: "https://t.example/cb",
    });
    const token = emulator.admin.issueClientToken(client.clientId).accessToken;
    const read = await api<{ payload: { title: string } }>(
      emulator,
      `/api/v4/protocols/${created.body.uri}`,
      token,
    );
    expect(read.body.payload.title).toBe("Admin-made protocol");
    expect(
      (await api(emulator, `/api/v4/protocols/${created.body.id}`, demoOf(emulator).clientAccessToken))
        .status,
    ).toBe(404);
  });

  it("refuses protocols without a known creator, with missing fields, or public ones shared", async () => {
    const base = { title: "T", creator: "new-scientist", public: true, steps: ["x"] };
    expect((await admin(emulator, "POST", "/protocols", { ...base, creator: "nobody" })).status).toBe(404);
    expect((await admin(emulator, "POST", "/protocols", { ...base, public: undefined })).status).toBe(400);
    expect((await admin(emulator, "POST", "/protocols", { ...base, title: "" })).status).toBe(400);
    const shared = await admin(emulator, "POST", "/protocols", { ...base, sharedWith: ["mei-chen"] });
    expect(shared.body).toEqual({
      error: "invalid_request",
      message: "only private protocols are shared with users",
    });
    expect((await admin(emulator, "POST", "/protocols", "not json")).status).toBe(400);
  });
});

describe("admin API: settings, clock, faults and request log", () => {
  it("reads and changes settings, refusing unknown users and bad values", async () => {
    const initial = await admin(emulator, "GET", "/settings");
    expect(initial.body).toEqual({
      accessTokenLifetimeSeconds: 31_536_000,
      codeLifetimeSeconds: 600,
      browserSessionUser: null,
      rateLimits: { apiPerMinute: 100, pdfSignedInPerMinute: 5, pdfAnonymousPerMinute: 3 },
    });
    const patched = await admin(emulator, "PATCH", "/settings", {
      browserSessionUser: "mei-chen",
      codeLifetimeSeconds: 60,
    });
    expect(patched.body).toMatchObject({ browserSessionUser: "mei-chen", codeLifetimeSeconds: 60 });
    expect(emulator.admin.settings().browserSessionUser).toBe("mei-chen");
    expect((await admin(emulator, "PATCH", "/settings", { browserSessionUser: "nobody" })).status).toBe(404);
    expect((await admin(emulator, "PATCH", "/settings", { accessTokenLifetimeSeconds: 0 })).status).toBe(400);
    expect((await admin(emulator, "PATCH", "/settings", { colour: "blue" })).status).toBe(400);
    await admin(emulator, "PATCH", "/settings", { browserSessionUser: null, codeLifetimeSeconds: 600 });
    expect(emulator.admin.settings().browserSessionUser).toBeNull();
  });

  it("moves the clock, injects faults into tenant paths, and logs tenant requests with tokens redacted", async () => {
    const token = demoOf(emulator).clientAccessToken;
    const before = Date.parse((await admin<{ now: string }>(emulator, "GET", "/clock")).body.now);
    const after = await admin<{ now: string }>(emulator, "POST", "/clock", { advanceMs: 3_600_000 });
    expect(Date.parse(after.body.now) - before).toBeGreaterThanOrEqual(3_600_000);

    expect(
      (
        await admin(emulator, "POST", "/faults", {
          fault: { kind: "status", status: 503 },
          path: "/api/v3/protocols",
        })
      ).status,
    ).toBe(201);
    expect((await api(emulator, "/api/v3/protocols?filter=public", token)).status).toBe(503);
    expect((await api(emulator, "/api/v3/protocols?filter=public", token)).status).toBe(200);

    await admin(emulator, "DELETE", "/requests");
    await api(emulator, "/api/v3/protocols?filter=public&key=elisa", token);
    const log = await admin<{
      count: number;
      entries: { path: string; query: unknown; headers: Record<string, string> }[];
    }>(emulator, "GET", "/requests");
    expect(log.body.count).toBe(1);
    expect(log.body.entries[0]).toMatchObject({
      path: "/api/v3/protocols",
      query: { filter: "public", key: "elisa" },
      headers: { authorization: "REDACTED" },
    });
    expect(log.text).not.toContain(token);
  });
});
