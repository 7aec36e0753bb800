// The audit log's attribution, as the spec has it: API-key calls to the key owner, app calls to the
// acting (service) user with the app, OpenID Connect calls to the matched user.
import { beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../packages/emulators/src/labdata/index.js";
import { demoOf, useLabdataWithIdp } from "../../support/emulator.js";
import { accessToken, basic, bearer, fetchReply } from "../../support/labdata-http.js";

const lab = useLabdataWithIdp("aud");

beforeEach(() => {
  lab.emulator.admin.clearAuditLog("acme");
});

const entries = (): AuditEntry[] => lab.emulator.admin.auditLog("acme");

async function readOne(authorization: string): Promise<string> {
  const listed = await fetchReply(
    `${lab.api}/dna-sequences?pageSize=1&folderId=${demoOf(lab.emulator).folders.Backbones}`,
    { authorization },
  );
  const id = listed.body.dnaSequences[0].id as string;
  expect((await fetchReply(`${lab.api}/dna-sequences/${id}`, { authorization })).status).toBe(200);
  return id;
}

describe("labdata audit log", () => {
  it("attributes API-key calls to the key's owner", async () => {
    const { user } = demoOf(lab.emulator);
    const id = await readOne(basic(user.apiKey));
    const [list, read] = entries();
    expect(list).toMatchObject({
      action: "dna-sequence.list",
      method: "GET",
      status: 200,
      actorUserId: user.id,
    });
    expect(read).toMatchObject({
      action: "dna-sequence.read",
      path: `/acme/api/v2/dna-sequences/${id}`,
      resourceId: id,
      authMethod: "api_key",
      actorUserId: user.id,
      actorHandle: user.handle,
      appId: null,
    });
    expect(read?.apiKeyId).toMatch(/^key_/);
    expect(Date.parse(read?.at ?? "")).toBeGreaterThan(0);
  });

  it("attributes app calls to the acting service user and records the app", async () => {
    const { app } = demoOf(lab.emulator);
    const token = await accessToken(lab.api, app.clientId, app.clientSecret);
    const id = await readOne(bearer(token));
    const [issue, , read] = entries();
    expect(issue).toMatchObject({ action: "token.issue", actorUserId: app.serviceUserId, appId: app.id });
    expect(read).toMatchObject({
      action: "dna-sequence.read",
      resourceId: id,
      authMethod: "oauth_client_credentials",
      actorUserId: app.serviceUserId,
      actorHandle: "app-sequence-sync",
      appId: app.id,
      apiKeyId: null,
    });
  });

  it("attributes OpenID Connect calls to the user matched by email", async () => {
    const { colleague } = demoOf(lab.emulator);
    const idToken = await lab.idp.mintIdToken({ email: colleague.email, audience: "aud" });
    await readOne(bearer(idToken));
    expect(entries().at(-1)).toMatchObject({
      authMethod: "oidc",
      actorUserId: colleague.id,
      appId: null,
      apiKeyId: null,
    });
  });

  it("records writes with the new record's id, and refusals with their status", async () => {
    const { user, folders } = demoOf(lab.emulator);
    const created = await fetchReply(`${lab.api}/dna-sequences`, {
      authorization: basic(user.apiKey),
      json: { name: "audited", bases: "ACGT", isCircular: false, folderId: folders.Backbones },
    });
    const denied = await fetchReply(`${lab.api}/dna-sequences`, {
      authorization: basic(user.apiKey),
      json: { name: "denied", bases: "ACGT", isCircular: false, folderId: folders["Knockout Cassettes"] },
    });
    expect(denied.status).toBe(403);
    const [write, refusal] = entries();
    expect(write).toMatchObject({
      action: "dna-sequence.create",
      method: "POST",
      status: 201,
      resourceId: created.body.id,
    });
    expect(refusal).toMatchObject({ action: "dna-sequence.create", status: 403, actorUserId: user.id });
  });

  it("records nothing for callers who could not authenticate", async () => {
    await fetchReply(`${lab.api}/dna-sequences`, { authorization: basic("sk_unknown") });
    await fetchReply(`${lab.api}/dna-sequences`);
    expect(entries()).toEqual([]);
  });
});
