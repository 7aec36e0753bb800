// OpenID Connect: ID tokens from the tenant's identity provider as Bearer, verified against its
// discovery document and keys (signature, issuer, audience, expiry by the emulator clock), the user
// matched by the email claim.
import { describe, expect, it } from "vitest";
import { createCertificateAuthority } from "../../../packages/emulators/src/common/tls.js";
import { startIdentityProvider } from "../../../packages/emulators/src/idp/index.js";
import { demoOf, startTestLabdata, useLabdataWithIdp } from "../../support/emulator.js";
import { basic, bearer, expectError, fetchReply } from "../../support/labdata-http.js";
import { accessTokenHeadless } from "../../support/oauth-client.js";

const AUDIENCE = "labdata-acme";

const lab = useLabdataWithIdp(AUDIENCE);

const me = (token: string, apiUrl = lab.api) =>
  fetchReply(`${apiUrl}/users/me`, { authorization: bearer(token) });

async function rejected(token: string, message: string): Promise<void> {
  const reply = await me(token);
  expectError(reply, 401, "authentication_error");
  expect(reply.body.error.message).toBe(message);
  expect(reply.text).not.toContain(token);
}

describe("labdata auth: OpenID Connect", () => {
  it("authenticates the platform user whose email the ID token carries", async () => {
    const { user } = demoOf(lab.emulator);
    const reply = await me(await lab.idp.mintIdToken({ email: user.email, audience: AUDIENCE }));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: user.id, email: user.email, name: user.name });
  });

  it("matches the email without regard to case", async () => {
    const { colleague } = demoOf(lab.emulator);
    const reply = await me(
      await lab.idp.mintIdToken({ email: colleague.email.toUpperCase(), audience: AUDIENCE }),
    );
    expect(reply.body.id).toBe(colleague.id);
  });

  it("refuses a token signed with a key the provider does not publish", async () => {
    const token = await lab.idp.mintIdToken({
      email: demoOf(lab.emulator).user.email,
      audience: AUDIENCE,
      signWithForeignKey: true,
    });
    await rejected(token, "ID token signature is not valid");
  });

  it("refuses a token from another issuer", async () => {
    const token = await lab.idp.mintIdToken({
      email: demoOf(lab.emulator).user.email,
      audience: AUDIENCE,
      issuer: "https://evil.example",
    });
    await rejected(token, "ID token issuer is not the identity provider's");
  });

  it("refuses a token for another audience", async () => {
    const token = await lab.idp.mintIdToken({
      email: demoOf(lab.emulator).user.email,
      audience: "some-other-app",
    });
    await rejected(token, "ID token audience is not this tenant's");
  });

  it("refuses an expired token", async () => {
    const token = await lab.idp.mintIdToken({
      email: demoOf(lab.emulator).user.email,
      audience: AUDIENCE,
      expiresInSec: -60,
    });
    await rejected(token, "ID token has expired");
  });

  it("refuses a token whose email is no platform user's, or a suspended user's", async () => {
    await rejected(
      await lab.idp.mintIdToken({ email: "nobody@acme.example", audience: AUDIENCE }),
      "No user of this tenant has the ID token's email",
    );
    const { suspended } = demoOf(lab.emulator);
    await rejected(
      await lab.idp.mintIdToken({ email: suspended.email, audience: AUDIENCE }),
      "The ID token belongs to a suspended user",
    );
  });

  it("refuses an unsigned (alg none) token and one that is a JWT in shape only", async () => {
    await rejected(
      "eyJhbGciOiJub25lIn0.eyJlbWFpbCI6Im1pcmEifQ.c2lnbmF0dXJl",
      "ID token algorithm is not allowed",
    );
    await rejected("abc.def.ghi", "ID token is malformed");
  });

  it("checks exp and nbf by the emulator clock", async () => {
    const other = await startTestLabdata();
    try {
      const otherApi = other.tenant("acme").apiUrl;
      other.admin.updateSettings("acme", {
        oidc: { configurationUrl: lab.idp.configurationUrl, audience: AUDIENCE },
      });
      const email = demoOf(other).user.email;
      const shortLived = await lab.idp.mintIdToken({ email, audience: AUDIENCE, expiresInSec: 120 });
      const later = await lab.idp.mintIdToken({
        email,
        audience: AUDIENCE,
        notBefore: new Date(Date.now() + 300_000),
      });
      expect((await me(shortLived, otherApi)).status).toBe(200);
      expect((await me(later, otherApi)).body.error.message).toBe("ID token is not valid yet");

      other.clock.advance(301_000);
      expect((await me(shortLived, otherApi)).body.error.message).toBe("ID token has expired");
      expect((await me(later, otherApi)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("caches discovery and keys, and fetches the keys once more after the provider rotates them", async () => {
    const email = demoOf(lab.emulator).user.email;
    expect((await me(await lab.idp.mintIdToken({ email, audience: AUDIENCE }))).status).toBe(200);
    lab.idp.requests.clear();
    expect((await me(await lab.idp.mintIdToken({ email, audience: AUDIENCE }))).status).toBe(200);
    expect(lab.idp.requests.count()).toBe(0);

    await lab.idp.rotateKeys();
    expect((await me(await lab.idp.mintIdToken({ email, audience: AUDIENCE }))).status).toBe(200);
    expect(lab.idp.requests.count("/jwks")).toBe(1);
    expect(lab.idp.requests.count("/.well-known")).toBe(0);
    expect((await me(await lab.idp.mintIdToken({ email, audience: AUDIENCE }))).status).toBe(200);
    expect(lab.idp.requests.count()).toBe(1);
  });

  it("refuses ID tokens where the tenant has no OpenID Connect set up, and on another tenant", async () => {
    const { globex } = demoOf(lab.emulator);
    const token = await lab.idp.mintIdToken({ email: globex.user.email, audience: AUDIENCE });
    const reply = await me(token, lab.emulator.tenant("globex").apiUrl);
    expectError(reply, 401, "authentication_error");
    expect(reply.body.error.message).toBe("OpenID Connect is not set up for this tenant");
  });

  it("answers 401 while the provider cannot be reached, and recovers once it can", async () => {
    const other = await startTestLabdata();
    try {
      const otherApi = other.tenant("acme").apiUrl;
      other.admin.updateSettings("acme", {
        oidc: { configurationUrl: lab.idp.configurationUrl, audience: AUDIENCE },
      });
      const token = await lab.idp.mintIdToken({ email: demoOf(other).user.email, audience: AUDIENCE });
      lab.idp.faults.inject({ kind: "status", status: 503 }, { path: "/.well-known/" });
      const down = await me(token, otherApi);
      expectError(down, 401, "authentication_error");
      expect(down.body.error.message).toBe("could not read the identity provider's OpenID configuration");
      expect((await me(token, otherApi)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("trusts a provider signed by another CA only when that CA is given in oidcTrustedCaPems", async () => {
    const foreignCa = await createCertificateAuthority("foreign idp CA");
    const foreignIdp = await startIdentityProvider({ ca: foreignCa });
    const [untrusting, trusting] = await Promise.all([
      startTestLabdata({ demo: false }),
      startTestLabdata({ demo: false, oidcTrustedCaPems: [foreignCa.certPem] }),
    ]);
    try {
      const token = await foreignIdp.mintIdToken({ email: "ada@example.org", audience: AUDIENCE });
      for (const target of [untrusting, trusting]) {
        target.admin.createTenant({
          name: "solo",
          settings: { oidc: { configurationUrl: foreignIdp.configurationUrl, audience: AUDIENCE } },
        });
        target.admin.createUser("solo", { name: "Ada Lovelace", email: "ada@example.org" });
      }
      expect((await me(token, untrusting.tenant("solo").apiUrl)).status).toBe(401);
      expect((await me(token, trusting.tenant("solo").apiUrl)).status).toBe(200);
    } finally {
      await Promise.all([untrusting.close(), trusting.close(), foreignIdp.close()]);
    }
  });

  it("works beside the other methods for the same user", async () => {
    const { user } = demoOf(lab.emulator);
    const viaKey = await fetchReply(`${lab.api}/users/me`, { authorization: basic(user.apiKey) });
    const viaOidc = await me(await lab.idp.mintIdToken({ email: user.email, audience: AUDIENCE }));
    expect(viaOidc.body).toEqual(viaKey.body);
  });

  it("refuses an OAuth access token (typ at+jwt), even one whose audience is the tenant's", async () => {
    // A token a person got for an MCP server: tenants once named that server as audience for pass-through.
    const mcpServer = "https://mcp.lab.example/mcp";
    const token = await accessTokenHeadless(
      lab.idp,
      demoOf(lab.emulator).user.email,
      mcpServer,
      "http://127.0.0.1:9/cb",
    );
    lab.emulator.admin.updateSettings("acme", {
      oidc: { configurationUrl: lab.idp.configurationUrl, audience: mcpServer },
    });
    try {
      await rejected(
        token,
        "Bearer token is an OAuth access token (typ at+jwt) for another resource, not an ID token for this " +
          "tenant: exchange it at the identity provider for an ID token whose audience is this tenant's",
      );
    } finally {
      lab.emulator.admin.updateSettings("acme", {
        oidc: { configurationUrl: lab.idp.configurationUrl, audience: AUDIENCE },
      });
    }
  });
});
