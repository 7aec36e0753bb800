// The two token kinds see through one user's eyes each: a CLIENT_ACCESS_TOKEN the application owner's,
// an OAuth sign-in the approving user's. Six protocols with one rare word make "exactly" checkable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, callJson, callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { freePort } from "../support/ports.js";
import { connectWithBrowser, tempHome } from "../support/protocols.js";

const emulator = useProtocolsEmulator();
let client: Connected;
let oauth: Connected;
const ids: Record<string, number> = {};
const uris: Record<string, string> = {};

beforeAll(async () => {
  const { admin } = emulator;
  admin.createUser({ username: "axo-owner", name: "Axo Owner", affiliation: "Owner Lab" });
  admin.createUser({ username: "axo-member", name: "Axo Member", affiliation: "Member Lab" });
  const app = admin.createApplication({
    owner: "axo-owner",
    redirectUri: `http://127.0.0.1:${await freePort()}/callback`,
  });
  const make = (name: string, title: string, creator: string, isPublic: boolean, sharedWith?: string[]) => {
    const created = admin.createProtocol({
      title,
      creator,
      public: isPublic,
      sharedWith,
      steps: ["Thaw.", "Mix."],
    });
    ids[name] = created.id;
    uris[name] = created.uri;
  };
  make("ownerPublic", "Axolotl limb staining (owner, public)", "axo-owner", true);
  make("ownerPrivate", "Axolotl limb staining (owner, private)", "axo-owner", false);
  make("memberPublic", "Axolotl tail regeneration (member, public)", "axo-member", true);
  make("memberPrivate", "Axolotl tail regeneration (member, private)", "axo-member", false);
  make("memberShared", "Axolotl tail regeneration (member, shared with owner)", "axo-member", false, [
    "axo-owner",
  ]);
  make("strangerPrivate", "Axolotl husbandry (someone else, private)", "mei-chen", false);

  client = await connectInMemory(protocolsService, {
    PROTOCOLS_BASE_URL: emulator.url,
    PROTOCOLS_ACCESS_TOKEN: admin.issueClientToken(app.clientId).accessToken,
  });
  const home = tempHome();
  oauth = await connectWithBrowser(
    emulator,
    {
      PROTOCOLS_BASE_URL: emulator.url,
      PROTOCOLS_CLIENT_ID: app.clientId,
      PROTOCOLS_CLIENT_SECRET: app.clientSecret,
      PROTOCOLS_REDIRECT_URI: app.redirectUri,
      PROTOCOLS_TOKEN_FILE: home.tokenFile,
    },
    "axo-member",
  );
  expect((await callText(oauth, "protocols_sign_in")).isError).toBe(false);
});
afterAll(async () => {
  await client.close();
  await oauth.close();
});

const seen = async (connection: Connected, filter: string) => {
  const page = await callJson<{ protocols: Array<{ id: number }> }>(connection, "protocols_search", {
    keyword: "axolotl",
    filter,
    limit: 100,
  });
  return page.protocols.map((p) => p.id).sort();
};
const idsOf = (...names: string[]) => names.map((name) => ids[name] as number).sort();
const NOT_FOUND = { isError: true, text: "Error: Resource not found. Please check the ID is correct." };

describe("CLIENT_ACCESS_TOKEN: public content and the application owner's private content", () => {
  it("is the owner", async () => {
    expect((await callText(client, "protocols_get_profile")).text).toContain(
      "- **User**: Axo Owner (axo-owner)",
    );
  });

  it.each([
    ["public", ["ownerPublic", "memberPublic"]],
    ["user_public", ["ownerPublic"]],
    ["user_private", ["ownerPrivate"]],
    ["shared_with_user", ["memberShared"]],
  ])("filter %s shows exactly %j", async (filter, names) => {
    expect(await seen(client, filter)).toEqual(idsOf(...names));
  });

  it("reads what it may see and gets the not-found text for the rest", async () => {
    for (const name of ["ownerPublic", "ownerPrivate", "memberPublic", "memberShared"]) {
      expect(
        (await callText(client, "protocols_get_protocol", { protocol: String(ids[name]) })).isError,
        name,
      ).toBe(false);
    }
    for (const name of ["memberPrivate", "strangerPrivate"]) {
      expect(await callText(client, "protocols_get_protocol", { protocol: String(ids[name]) }), name).toEqual(
        NOT_FOUND,
      );
      expect(
        await callText(client, "protocols_get_protocol", { part: "steps", protocol: uris[name] }),
        name,
      ).toEqual(NOT_FOUND);
    }
  });

  it("lists the owner's own protocols as 'my protocols'", async () => {
    const page = await callJson<{ protocols: Array<{ id: number }> }>(client, "protocols_list_my_protocols");
    expect(page.protocols.map((p) => p.id)).toEqual([ids.ownerPrivate, ids.ownerPublic]);
  });
});

describe("OAuth sign-in: the approving user's private content and all public content", () => {
  it("is the member who approved", async () => {
    expect((await callText(oauth, "protocols_get_profile")).text).toContain(
      "- **User**: Axo Member (axo-member)",
    );
  });

  it.each([
    ["public", ["ownerPublic", "memberPublic"]],
    ["user_public", ["memberPublic"]],
    ["user_private", ["memberPrivate", "memberShared"]],
    ["shared_with_user", []],
  ])("filter %s shows exactly %j", async (filter, names) => {
    expect(await seen(oauth, filter)).toEqual(idsOf(...names));
  });

  it("reads what it may see and gets the not-found text for the rest", async () => {
    for (const name of ["ownerPublic", "memberPublic", "memberPrivate", "memberShared"]) {
      expect(
        (await callText(oauth, "protocols_get_protocol", { protocol: String(ids[name]) })).isError,
        name,
      ).toBe(false);
    }
    for (const name of ["ownerPrivate", "strangerPrivate"]) {
      expect(
        await callText(oauth, "protocols_get_protocol", { protocol: uris[name] as string }),
        name,
      ).toEqual(NOT_FOUND);
    }
  });

  it("lists the member's own protocols as 'my protocols'", async () => {
    const page = await callJson<{ protocols: Array<{ id: number }> }>(oauth, "protocols_list_my_protocols", {
      order: "title",
    });
    expect(page.protocols.map((p) => p.id)).toEqual([ids.memberPrivate, ids.memberShared, ids.memberPublic]);
    expect(await callText(oauth, "protocols_list_my_protocols", { which: "shared_with_me" })).toEqual({
      isError: false,
      text: "No private protocols are shared with you.",
    });
  });
});
