// The identity provider's token-exchange grant (RFC 8693) at POST /token: a confidential client that
// registered the grant type trades a person's access token issued here for an ID token (or an access
// token) for another audience, verified with jose against the JWKS; every refusal with its OAuth error.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_PEOPLE,
  type IdentityProvider,
  startIdentityProvider,
  TOKEN_PATH,
} from "../../../packages/emulators/src/idp/index.js";
import { testCa } from "../../support/emulator.js";
import { basic, fetchReply } from "../../support/labdata-http.js";
import {
  accessTokenHeadless,
  registerConfidentialClient,
  TOKEN_EXCHANGE_GRANT,
} from "../../support/oauth-client.js";

const REDIRECT = "http://127.0.0.1:8976/callback";
const MCP_RESOURCE = "https://mcp.lab.example/mcp";
const PLATFORM = "labdata-platform";
const ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
const [MIRA, TOM] = DEMO_PEOPLE as [(typeof DEMO_PEOPLE)[0], (typeof DEMO_PEOPLE)[0]];

let idp: IdentityProvider;
let exchanger: { id: string; secret: string };

beforeAll(async () => {
  idp = await startIdentityProvider({ ca: testCa() });
  exchanger = await registerConfidentialClient(idp);
});

afterAll(async () => {
  await idp?.close();
});

/** A token-exchange request by `client` with `params` over the defaults (Mira's subject token is given). */
const exchange = (subjectToken: string, params: Record<string, string> = {}, client = exchanger) =>
  fetchReply(`${idp.issuer}${TOKEN_PATH}`, {
    authorization: basic(client.id, client.secret),
    form: {
      grant_type: TOKEN_EXCHANGE_GRANT,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ID_TOKEN,
      audience: PLATFORM,
      ...params,
    },
  });

const keys = () => createRemoteJWKSet(new URL(idp.jwksUri));

describe("identity provider: token exchange", () => {
  it("says it supports the grant in its metadata", async () => {
    const reply = await fetchReply(idp.metadataUrl);
    expect(reply.body.grant_types_supported).toContain(TOKEN_EXCHANGE_GRANT);
  });

  it("exchanges each person's access token for an ID token for the audience, with their email", async () => {
    for (const person of [MIRA, TOM]) {
      const subject = await accessTokenHeadless(idp, person.email, MCP_RESOURCE, REDIRECT);
      const reply = await exchange(subject);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ issued_token_type: ID_TOKEN, token_type: "N_A" });
      expect(reply.body.expires_in).toBeGreaterThan(0);
      expect(reply.headers.get("cache-control")).toBe("no-store");
      const { payload } = await jwtVerify(reply.body.access_token, keys(), {
        issuer: idp.issuer,
        audience: PLATFORM,
      });
      expect(payload).toMatchObject({ sub: person.subject, email: person.email });
      expect(decodeProtectedHeader(reply.body.access_token).typ).toBe("JWT");
    }
  });

  it("exchanges for an access token for the audience when asked", async () => {
    const subject = await accessTokenHeadless(idp, MIRA.email, MCP_RESOURCE, REDIRECT);
    const reply = await exchange(subject, { requested_token_type: ACCESS_TOKEN });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ issued_token_type: ACCESS_TOKEN, token_type: "Bearer" });
    const { payload, protectedHeader } = await jwtVerify(reply.body.access_token, keys(), {
      audience: PLATFORM,
    });
    expect(protectedHeader.typ).toBe("at+jwt");
    expect(payload).toMatchObject({ sub: MIRA.subject, client_id: exchanger.id });
  });

  it("refuses a client that did not register the grant (unauthorized_client), and a public one at registration", async () => {
    const subject = await accessTokenHeadless(idp, MIRA.email, MCP_RESOURCE, REDIRECT);
    const other = await registerConfidentialClient(idp, ["authorization_code"]);
    const reply = await exchange(subject, {}, other);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe("unauthorized_client");
    const publicClient = await fetchReply(`${idp.issuer}/register`, {
      json: {
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: [TOKEN_EXCHANGE_GRANT],
      },
    });
    expect(publicClient.status).toBe(400);
    expect(publicClient.body).toMatchObject({
      error: "invalid_client_metadata",
      error_description: "Token exchange needs a confidential client.",
    });
  });

  it("refuses a wrong client secret (invalid_client)", async () => {
    const subject = await accessTokenHeadless(idp, MIRA.email, MCP_RESOURCE, REDIRECT);
    const reply = await exchange(subject, {}, { id: exchanger.id, secret: "wrong" });
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe("invalid_client");
  });

  it("refuses a token it did not issue, a revoked one and an expired one (invalid_grant)", async () => {
    const foreign = await exchange("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.");
    expect(foreign.body).toEqual({
      error: "invalid_grant",
      error_description: "The subject token was not issued by this identity provider.",
    });
    const idToken = await idp.mintIdToken({ email: MIRA.email, audience: MCP_RESOURCE });
    expect((await exchange(idToken)).body.error).toBe("invalid_grant");
    const revoked = await accessTokenHeadless(idp, TOM.email, MCP_RESOURCE, REDIRECT);
    idp.admin.revokeSubject(TOM.email);
    expect((await exchange(revoked)).body).toEqual({
      error: "invalid_grant",
      error_description: "The subject token has expired or was revoked.",
    });
    const expiring = await accessTokenHeadless(idp, MIRA.email, MCP_RESOURCE, REDIRECT);
    idp.clock.advance(601_000);
    expect((await exchange(expiring)).body.error).toBe("invalid_grant");
  });

  it("refuses a request without its parameters (invalid_request)", async () => {
    const subject = await accessTokenHeadless(idp, MIRA.email, MCP_RESOURCE, REDIRECT);
    for (const [params, description] of [
      [{ subject_token: "" }, "subject_token is required."],
      [{ subject_token_type: ID_TOKEN }, `subject_token_type must be ${ACCESS_TOKEN}.`],
      [{ audience: "" }, "audience is required."],
      [{ requested_token_type: "urn:x" }, `requested_token_type must be ${ACCESS_TOKEN} or ${ID_TOKEN}.`],
    ] as const) {
      const reply = await exchange(subject, params);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: "invalid_request", error_description: description });
    }
  });
});
