// Team mode: which signed tokens of the configured issuer open the server, against an issuer of the
// test's own (metadata, JWKS, its own keys), so each claim and header can be set. An ID token (nonce,
// at_hash, its client as audience), a token typed as something else than an access token, or one with
// an empty subject is refused; metadata naming another issuer, or a plain-http JWKS off this host, is
// never trusted (RFC 8414 §3.3).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedMetadata } from "../../packages/lab-mcp/src/core/auth/discovery.js";
import { type HttpServerProcess, rawModernList, startHttpBin } from "../support/clients.js";
import { exampleEnv, useExampleEmulator } from "../support/emulator.js";
import { freePort } from "../support/ports.js";

const example = useExampleEmulator();
let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let issuerServer: Server;
let issuer: string;
/** What the issuer's metadata says its issuer is (changed by a test). */
let advertisedIssuer: () => string = () => issuer;

beforeAll(async () => {
  keys = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  issuerServer = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url?.startsWith("/.well-known/")) {
      res.end(JSON.stringify({ issuer: advertisedIssuer(), jwks_uri: `${issuer}/jwks` }));
    } else if (req.url === "/jwks") {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => issuerServer?.close(resolve));
});

async function startServer(): Promise<{ server: HttpServerProcess; endpoint: string }> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  const server = await startHttpBin(
    "example-mcp",
    exampleEnv(example, { MCP_PORT: String(port), MCP_AUTH_ISSUER: issuer, MCP_AUTH_AUDIENCE: endpoint }),
  );
  return { server, endpoint };
}

function token(
  endpoint: string,
  claims: JWTPayload = {},
  options: { typ?: string; sub?: string; aud?: string | string[] } = {},
): Promise<string> {
  const header: { alg: string; kid: string; typ?: string } = { alg: "RS256", kid: "k1" };
  if (options.typ !== undefined) header.typ = options.typ;
  return new SignJWT({ client_id: "agent", scope: "mcp", ...claims })
    .setProtectedHeader(header)
    .setIssuer(issuer)
    .setSubject(options.sub ?? "mira")
    .setAudience(options.aud ?? endpoint)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(keys.privateKey);
}

const status = async (endpoint: string, bearer: string) =>
  (await rawModernList(endpoint, { authorization: `Bearer ${bearer}` })).status;

describe("team mode: only access tokens open the server", () => {
  it("takes access tokens marked at+jwt or unmarked, and refuses ID tokens, other types and empty subjects", async () => {
    const { server, endpoint } = await startServer();
    try {
      expect(await status(endpoint, await token(endpoint, {}, { typ: "at+jwt" }))).toBe(200);
      expect(await status(endpoint, await token(endpoint, {}, { typ: "application/at+jwt" }))).toBe(200);
      // Keycloak, Entra ID and Okta mark theirs as plain JWT.
      expect(await status(endpoint, await token(endpoint, {}, { typ: "JWT" }))).toBe(200);

      const refused = [
        await token(endpoint, {}, { typ: "id+jwt" }),
        await token(endpoint, {}, { typ: "logout+jwt" }),
        await token(endpoint, { nonce: "n-0S6_WzA2Mj" }, { typ: "JWT" }),
        await token(endpoint, { at_hash: "77QmUPtjPfzWtF2AnpK9RQ" }),
        await token(endpoint, { typ: "ID" }, { typ: "JWT" }),
        await token(endpoint, { azp: "agent" }, { aud: [endpoint, "agent"] }),
        await token(endpoint, {}, { typ: "at+jwt", sub: "" }),
        await token(endpoint, {}, { typ: "at+jwt", sub: "  " }),
        // An ID token exchanged for this server's audience: unmarked, naming no client and no access.
        await token(
          endpoint,
          { client_id: undefined, scope: undefined, email: "tom@lab.example", email_verified: true },
          { typ: "JWT" },
        ),
      ];
      for (const bearer of refused) {
        const response = await rawModernList(endpoint, { authorization: `Bearer ${bearer}` });
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      }
      for (const bearer of refused) expect(server.stderr()).not.toContain(bearer);
    } finally {
      await server.stop();
    }
  });

  it("never trusts metadata that names another issuer", async () => {
    advertisedIssuer = () => "https://attacker.example";
    const { server, endpoint } = await startServer();
    try {
      const answer = await status(endpoint, await token(endpoint, {}, { typ: "at+jwt" }));
      expect(answer).not.toBe(200);
    } finally {
      advertisedIssuer = () => issuer;
      await server.stop();
    }
  });

  it("takes keys and introspection over https, or plain http only on this host", () => {
    const at = "https://id.example.com";
    const ok = checkedMetadata(at, {
      issuer: `${at}/`,
      jwks_uri: `${at}/jwks`,
      introspection_endpoint: `${at}/introspect`,
    });
    expect(ok.jwksUri.href).toBe(`${at}/jwks`);
    expect(checkedMetadata(at, { issuer: at, jwks_uri: "http://127.0.0.1:8080/jwks" }).jwksUri.port).toBe(
      "8080",
    );
    expect(checkedMetadata(at, { issuer: at, jwks_uri: "http://[::1]:8080/jwks" }).jwksUri.port).toBe("8080");
    expect(() => checkedMetadata(at, { issuer: at, jwks_uri: "http://id.example.com/jwks" })).toThrow(
      /jwks_uri is not https/,
    );
    expect(() =>
      checkedMetadata(at, {
        issuer: at,
        jwks_uri: `${at}/jwks`,
        introspection_endpoint: "http://10.0.0.5/i",
      }),
    ).toThrow(/introspection_endpoint is not https/);
    expect(() => checkedMetadata(at, { issuer: "https://other.example", jwks_uri: `${at}/jwks` })).toThrow(
      /another issuer/,
    );
    expect(() => checkedMetadata(at, { jwks_uri: `${at}/jwks` })).toThrow(/another issuer/);
  });
});
