// Which part of the repository emulator answers a request, and in which format: the OAuth endpoints,
// the API (token and limit checked before any routing), the PDF view, the admin API, and the 404 for
// everything else. Edges of the route tables: HEAD, wrong methods, undecodable path segments.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { admin, api, LEGACY } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator(LEGACY);
let token: string;

beforeAll(async () => {
  token = demoOf(emulator).clientAccessToken;
});

describe("the API", () => {
  it("answers HEAD as GET without the body, with the rate headers", async () => {
    const get = await api(emulator, "/api/v3/session/profile", token);
    const head = await fetch(`${emulator.url}/api/v3/session/profile`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(head.headers.get("x-rate-limit-limit")).toBe("100");
  });

  it("answers an undecodable protocol id as a protocol that does not exist", async () => {
    for (const path of ["/api/v4/protocols/%E0%A4%A", "/api/v4/protocols/%E0%A4%A/steps"]) {
      const reply = await api(emulator, path, token);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ status_code: 1404, error_message: "Protocol not found." });
    }
  });

  it("answers 405 with the methods it takes to another method on a known path", async () => {
    const reply = await api(emulator, "/api/v4/protocols/1/steps", token, { method: "PATCH" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("GET, POST, DELETE");
    expect(reply.body).toEqual({
      status_code: 1405,
      error_message: "Method not allowed; use GET, POST, DELETE.",
    });
  });
});

describe("the OAuth endpoints", () => {
  it("answers a wrong method at the authorize page with a page", async () => {
    const reply = await api(emulator, "/api/v3/oauth/authorize", undefined, { method: "PUT" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("GET, POST");
    expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(reply.headers.get("x-frame-options")).toBe("DENY");
    expect(reply.text).toContain("Use GET or POST.");
  });

  it("answers a wrong method at the token endpoint with an OAuth error body", async () => {
    const reply = await api(emulator, "/api/v3/oauth/token");
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("POST");
    expect(reply.body).toEqual({
      error: "invalid_request",
      error_description: "The token endpoint takes POST only.",
    });
  });
});

describe("the PDF view and the rest", () => {
  it("answers an undecodable PDF address as a protocol not found, after counting it", async () => {
    const reply = await api(emulator, "/view/%E0%A4%A.pdf");
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ status_code: 1404, error_message: "Protocol not found." });
    expect(reply.headers.get("x-rate-limit-limit")).not.toBeNull();
  });

  it("answers any other path with the API's 404, uncounted", async () => {
    const reply = await api(emulator, "/view/not-a-pdf", token);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ status_code: 1404, error_message: "Not found." });
    expect(reply.headers.get("x-rate-limit-limit")).toBeNull();
  });
});

describe("the admin API", () => {
  it("answers an undecodable client id as an unknown application", async () => {
    const reply = await admin(emulator, "POST", "/applications/%E0%A4%A/client-token");
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: "not_found", message: "no application with this clientId" });
  });

  it("lists the methods of a path in Allow", async () => {
    const reply = await admin(emulator, "DELETE", "/dialect");
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("GET, PUT, PATCH");
  });
});
