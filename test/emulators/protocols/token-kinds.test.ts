// What each token kind sees: a CLIENT_ACCESS_TOKEN sees public content and its application owner's
// private content; an OAUTH_ACCESS_TOKEN the approving user's private content and all public content.
// Also one protocol by id and by URI, its steps in order, and the profile.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { type ApiError, api, type Fixture, LEGACY, list, seedFixture } from "../../support/protocols-http.js";

interface StepWire {
  id: number;
  guid: string;
  previous_id: number | null;
  previous_guid: string | null;
  number: string;
  section: string | null;
  step: string;
}

interface ProtocolBody {
  payload: Record<string, unknown> & { id: number; uri: string; title: string; steps: StepWire[] };
  status_code: number;
}

const emulator = useProtocolsEmulator(LEGACY);
let fx: Fixture;

beforeAll(async () => {
  fx = await seedFixture(emulator);
});

async function idsIn(token: string, filter: string): Promise<number[]> {
  const body = await list(
    emulator,
    token,
    `filter=${filter}&key=quokka&order_field=id&order_dir=asc&page_size=100`,
  );
  return body.items.map((p) => p.id);
}

async function status(token: string, id: number): Promise<number> {
  return (await api(emulator, `/api/v4/protocols/${id}`, token)).status;
}

describe("CLIENT_ACCESS_TOKEN", () => {
  it("lists the owner's own public, private and shared protocols under the user filters", async () => {
    expect(await idsIn(fx.clientToken, "user_public")).toEqual([fx.ids.ownerPublic]);
    expect(await idsIn(fx.clientToken, "user_private")).toEqual([fx.ids.ownerPrivate]);
    expect(await idsIn(fx.clientToken, "shared_with_user")).toEqual([fx.ids.memberSharedWithOwner]);
    expect(await idsIn(fx.clientToken, "public")).toEqual([fx.ids.ownerPublic, fx.ids.memberPublic]);
  });

  it("reads the owner's private protocols and public ones, and no other user's private ones", async () => {
    expect(await status(fx.clientToken, fx.ids.ownerPrivate)).toBe(200);
    expect(await status(fx.clientToken, fx.ids.memberSharedWithOwner)).toBe(200);
    expect(await status(fx.clientToken, fx.ids.memberPublic)).toBe(200);
    expect(await status(fx.clientToken, fx.ids.memberPrivate)).toBe(404);
  });

  it("the demo client token sees its owner's five private protocols", async () => {
    const demo = demoOf(emulator);
    const body = await list(emulator, demo.clientAccessToken, "filter=user_private&page_size=100");
    expect(body.pagination.total_results).toBe(5);
    expect(body.items.every((p) => !p.public && p.creator.username === demo.application.owner)).toBe(true);
  });
});

describe("OAUTH_ACCESS_TOKEN", () => {
  it("lists the approving user's own protocols, and nothing shared with them here", async () => {
    expect(await idsIn(fx.oauthToken, "user_public")).toEqual([fx.ids.memberPublic]);
    expect(await idsIn(fx.oauthToken, "user_private")).toEqual([
      fx.ids.memberPrivate,
      fx.ids.memberSharedWithOwner,
    ]);
    expect(await idsIn(fx.oauthToken, "shared_with_user")).toEqual([]);
    expect(await idsIn(fx.oauthToken, "public")).toEqual([fx.ids.ownerPublic, fx.ids.memberPublic]);
  });

  it("reads the approving user's private protocols and public ones, not the application owner's", async () => {
    expect(await status(fx.oauthToken, fx.ids.memberPrivate)).toBe(200);
    expect(await status(fx.oauthToken, fx.ids.ownerPublic)).toBe(200);
    expect(await status(fx.oauthToken, fx.ids.ownerPrivate)).toBe(404);
  });

  it("never lists a private protocol under the public filter", async () => {
    const first = await list(emulator, fx.oauthToken, "filter=public&page_size=100");
    expect(first.pagination.total_results).toBe(322);
    for (let page = 1; page <= first.pagination.total_pages; page++) {
      const body = await list(emulator, fx.oauthToken, `filter=public&page_size=100&page_id=${page}`);
      expect(body.items.every((p) => p.public && p.published_on !== null)).toBe(true);
    }
  });
});

describe("one protocol and its steps", () => {
  it("answers the same payload by id and by URI, with the documented fields", async () => {
    const byId = await api<ProtocolBody>(emulator, `/api/v4/protocols/${fx.ids.ownerPublic}`, fx.clientToken);
    expect(byId.status).toBe(200);
    expect(byId.body.status_code).toBe(0);
    const { payload } = byId.body;
    const byUri = await api<ProtocolBody>(emulator, `/api/v4/protocols/${payload.uri}`, fx.clientToken);
    expect(byUri.body).toEqual(byId.body);
    expect(payload).toMatchObject({
      id: fx.ids.ownerPublic,
      title: "Owner public quokka assay",
      creator: { name: "Lab Owner", username: "lab-owner", affiliation: "Owner Lab" },
      authors: [{ name: "Lab Owner", affiliation: "Owner Lab", username: "lab-owner" }],
      description: "About Owner public quokka assay.",
      public: true,
      version_id: 1,
      versions: [{ version_id: 1, title: "Owner public quokka assay" }],
      stats: { number_of_steps: 3 },
    });
    expect(payload.uri).toMatch(/^owner-public-quokka-assay-[a-z0-9]{7}$/);
    expect(payload.doi).toBe(`dx.doi.org/10.17504/protocols.io.${payload.uri.slice(-7)}`);
    expect(payload.url).toBe(`${emulator.url}/view/${payload.uri}`);
    expect(typeof payload.created_on).toBe("number");
    expect(payload.published_on).toBe(payload.created_on);
    for (const field of ["guidelines", "materials", "steps"]) expect(payload).toHaveProperty(field);
  });

  it("gives private protocols no DOI and no publication date", async () => {
    const reply = await api<ProtocolBody>(
      emulator,
      `/api/v4/protocols/${fx.ids.ownerPrivate}`,
      fx.clientToken,
    );
    expect(reply.body.payload).toMatchObject({ public: false, doi: null, published_on: null });
  });

  it("lists steps in order, each linked to the previous one", async () => {
    const steps = await api<{ payload: StepWire[]; status_code: number }>(
      emulator,
      `/api/v4/protocols/${fx.ids.ownerPublic}/steps`,
      fx.clientToken,
    );
    expect(steps.status).toBe(200);
    expect(steps.body.status_code).toBe(0);
    const payload = steps.body.payload;
    expect(payload.map((s) => s.step)).toEqual(["Prepare the bench.", "Do the main thing.", "Clean up."]);
    expect(payload.map((s) => s.number)).toEqual(["1", "2", "3"]);
    expect(payload.map((s) => s.section)).toEqual([null, "Procedure", null]);
    expect(payload[0]?.previous_guid).toBeNull();
    payload.slice(1).forEach((step, i) => {
      expect(step.previous_guid).toBe(payload[i]?.guid);
      expect(step.previous_id).toBe(payload[i]?.id);
    });
    for (const step of payload) expect(step.guid).toMatch(/^[0-9A-F]{32}$/);

    const whole = await api<ProtocolBody>(
      emulator,
      `/api/v4/protocols/${fx.ids.ownerPublic}`,
      fx.clientToken,
    );
    expect(whole.body.payload.steps).toEqual(payload);
    const byUri = await api<{ payload: StepWire[] }>(
      emulator,
      `/api/v4/protocols/${whole.body.payload.uri}/steps`,
      fx.clientToken,
    );
    expect(byUri.body.payload).toEqual(payload);
  });

  it("answers 404 alike for a protocol that does not exist and one the caller may not see", async () => {
    const hidden = await api<ApiError>(emulator, `/api/v4/protocols/${fx.ids.memberPrivate}`, fx.clientToken);
    const missing = await api<ApiError>(emulator, "/api/v4/protocols/99999999", fx.clientToken);
    const hiddenSteps = await api<ApiError>(
      emulator,
      `/api/v4/protocols/${fx.ids.memberPrivate}/steps`,
      fx.clientToken,
    );
    for (const reply of [hidden, missing, hiddenSteps]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ status_code: 1404, error_message: "Protocol not found." });
    }
    expect((await api(emulator, "/api/v4/protocols/no-such-uri-abcdefg", fx.clientToken)).status).toBe(404);
  });
});

describe("profile", () => {
  it("is the application owner for a client token and the approving user for an OAuth token", async () => {
    const owner = await api(emulator, "/api/v3/session/profile", fx.clientToken);
    expect(owner.body).toEqual({
      user: {
        username: "lab-owner",
        name: "Lab Owner",
        email: "owner@lab.example",
        affiliation: "Owner Lab",
      },
      status_code: 0,
    });
    const member = await api(emulator, "/api/v3/session/profile", fx.oauthToken);
    expect(member.body).toEqual({
      user: {
        username: "lab-member",
        name: "Lab Member",
        email: "lab-member@lab.example",
        affiliation: "Member Lab",
      },
      status_code: 0,
    });
  });
});
