// The dialect switch: GET/PUT/PATCH /_admin/dialect (presets and single knobs, validated), the start
// option, and the default preset, which keeps the shapes the emulator has always sent.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DIALECT_PRESET,
  type Dialect,
  presetDialect,
} from "../../../packages/emulators/src/protocols/index.js";
import { startTestProtocols, useProtocolsEmulator } from "../../support/emulator.js";
import { admin } from "../../support/protocols-http.js";

interface DialectState {
  preset: string;
  dialect: Dialect;
}

const emulator = useProtocolsEmulator({ demo: false });

describe("/_admin/dialect", () => {
  it("starts with the default preset", async () => {
    const reply = await admin<DialectState>(emulator, "GET", "/dialect");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      preset: DEFAULT_DIALECT_PRESET,
      dialect: presetDialect(DEFAULT_DIALECT_PRESET),
    });
  });

  it("switches presets with PUT and single knobs with PATCH", async () => {
    const recorded = await admin<DialectState>(emulator, "PUT", "/dialect", { preset: "recorded" });
    expect(recorded.body).toEqual({ preset: "recorded", dialect: presetDialect("recorded") });

    const patched = await admin<DialectState>(emulator, "PATCH", "/dialect", {
      flags: "string",
      pageOrigin: 1,
    });
    expect(patched.body.preset).toBe("custom");
    expect(patched.body.dialect).toEqual({ ...presetDialect("recorded"), flags: "string", pageOrigin: 1 });

    // PUT replaces: the default preset plus the knobs given.
    const put = await admin<DialectState>(emulator, "PUT", "/dialect", { errorKey: "status_text" });
    expect(put.body.dialect).toEqual({ ...presetDialect(DEFAULT_DIALECT_PRESET), errorKey: "status_text" });
    await admin(emulator, "PUT", "/dialect", { preset: "legacy" });
  });

  it("refuses unknown knobs and values, naming them, and changes nothing", async () => {
    const badValue = await admin(emulator, "PATCH", "/dialect", { flags: "yes" });
    expect(badValue.status).toBe(400);
    expect(badValue.body).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^flags: /),
    });
    const unknown = await admin(emulator, "PATCH", "/dialect", { colour: "blue" });
    expect(unknown.status).toBe(400);
    const badPreset = await admin(emulator, "PUT", "/dialect", { preset: "2017" });
    expect(badPreset.status).toBe(400);
    expect((await admin<DialectState>(emulator, "GET", "/dialect")).body.preset).toBe("legacy");
    const wrongMethod = await admin(emulator, "DELETE", "/dialect");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, PUT, PATCH");
    expect((await admin(emulator, "GET", "/dialect", undefined, "not-the-secret")).status).toBe(401);
  });

  it("is the same in process", () => {
    expect(emulator.admin.updateDialect({ preset: "recorded", stepOrder: "linked" })).toEqual({
      preset: "custom",
      dialect: { ...presetDialect("recorded"), stepOrder: "linked" },
    });
    expect(() => emulator.admin.updateDialect({ pageOrigin: 2 as 0 })).toThrow(/pageOrigin/);
    emulator.admin.updateDialect({ preset: "legacy" });
  });
});

describe("start option", () => {
  it("takes a preset or a preset with knobs", async () => {
    const recorded = await startTestProtocols({ demo: false, dialect: "recorded" });
    const custom = await startTestProtocols({
      demo: false,
      dialect: { preset: "recorded", errorKey: "status_text" },
    });
    try {
      expect(recorded.admin.dialect().preset).toBe("recorded");
      expect(custom.admin.dialect()).toEqual({
        preset: "custom",
        dialect: { ...presetDialect("recorded"), errorKey: "status_text" },
      });
    } finally {
      await Promise.all([recorded.close(), custom.close()]);
    }
    await expect(startTestProtocols({ demo: false, dialect: { listEra: "1999" as "2019" } })).rejects.toThrow(
      /listEra/,
    );
  });
});
