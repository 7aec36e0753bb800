// The bundled OpenID provider: discovery document, public keys only in the JWKS, ID tokens that a
// standard verifier (jose) accepts, key rotation, and its admin API for minting over HTTP.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../../packages/emulators/src/idp/index.js";
import { testCa } from "../../support/emulator.js";

let idp: IdentityProvider;

beforeAll(async () => {
  const { certPem, keyPem } = testCa();
  idp = await startIdentityProvider({ ca: { certPem, keyPem } });
});

afterAll(async () => {
  await idp.close();
});

async function jwks() {
  const response = await fetch(idp.jwksUri);
  expect(response.status).toBe(200);
  return (await response.json()) as { keys: Record<string, unknown>[] };
}

async function verify(token: string, audience = "aud-1") {
  return jwtVerify(token, createLocalJWKSet((await jwks()) as never), { issuer: idp.issuer, audience });
}

const adminPost = (path: string, body: unknown, secret = idp.adminSecret) =>
  fetch(`${idp.issuer}/_admin${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("identity provider", () => {
  it("publishes a discovery document naming its issuer and JWKS", async () => {
    expect(idp.configurationUrl).toBe(`${idp.issuer}/.well-known/openid-configuration`);
    const response = await fetch(idp.configurationUrl);
    const doc = await response.json();
    expect(doc).toMatchObject({
      issuer: idp.issuer,
      jwks_uri: idp.jwksUri,
      id_token_signing_alg_values_supported: ["RS256"],
      subject_types_supported: ["public"],
    });
  });

  it("publishes only public RS256 keys", async () => {
    const { keys } = await jwks();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(keys[0]).not.toHaveProperty("d");
    expect(typeof keys[0]?.kid).toBe("string");
  });

  it("mints ID tokens with iss, sub, aud, email, iat and exp that verify against its keys", async () => {
    const token = await idp.mintIdToken({
      email: "ada@example.org",
      audience: "aud-1",
      expiresInSec: 600,
      name: "Ada",
    });
    const { payload, protectedHeader } = await verify(token);
    expect(protectedHeader).toMatchObject({ alg: "RS256", typ: "JWT" });
    expect(payload).toMatchObject({
      iss: idp.issuer,
      aud: "aud-1",
      email: "ada@example.org",
      email_verified: true,
      name: "Ada",
    });
    expect(typeof payload.sub).toBe("string");
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
  });

  it("mints the wrong tokens tests need: foreign signature, other issuer, not yet valid", async () => {
    const foreign = await idp.mintIdToken({
      email: "a@b.example",
      audience: "aud-1",
      signWithForeignKey: true,
    });
    await expect(verify(foreign)).rejects.toThrow(/signature/);
    const otherIssuer = await idp.mintIdToken({
      email: "a@b.example",
      audience: "aud-1",
      issuer: "https://other.example",
    });
    await expect(verify(otherIssuer)).rejects.toThrow(/iss/);
    const later = await idp.mintIdToken({
      email: "a@b.example",
      audience: "aud-1",
      notBefore: new Date(Date.now() + 600_000),
    });
    await expect(verify(later)).rejects.toThrow(/nbf/);
  });

  it("rotates keys: signs with a new key and keeps the previous one published", async () => {
    const before = decodeProtectedHeader(
      await idp.mintIdToken({ email: "a@b.example", audience: "aud-1" }),
    ).kid;
    await idp.rotateKeys();
    const token = await idp.mintIdToken({ email: "a@b.example", audience: "aud-1" });
    const after = decodeProtectedHeader(token).kid;
    expect(after).not.toBe(before);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([after, before]);
    await expect(verify(token)).resolves.toBeDefined();
  });

  it("mints over its admin API with its own secret", async () => {
    const response = await adminPost("/id-tokens", {
      email: "grace@example.org",
      audience: "aud-2",
      expiresInSec: 120,
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id_token: string; expires_in: number };
    expect(body.expires_in).toBe(120);
    expect((await verify(body.id_token, "aud-2")).payload.email).toBe("grace@example.org");

    expect((await adminPost("/id-tokens", { email: "x@y.example", audience: "a" }, "wrong")).status).toBe(
      401,
    );
    expect((await adminPost("/id-tokens", { email: "not an email", audience: "a" })).status).toBe(400);
    expect(
      (
        await fetch(`${idp.issuer}/_admin/id-tokens`, {
          headers: { authorization: `Bearer ${idp.adminSecret}` },
        })
      ).status,
    ).toBe(405);
    expect((await adminPost("/rotate-keys", {})).status).toBe(200);
    expect((await jwks()).keys).toHaveLength(2);
  });

  it("answers 404 elsewhere and 405 to other methods", async () => {
    expect((await fetch(`${idp.issuer}/userinfo`)).status).toBe(404);
    expect((await fetch(idp.jwksUri, { method: "POST" })).status).toBe(405);
  });
});
