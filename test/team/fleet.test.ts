// Team mode's whole story on a fleet: three labdata-mcp replicas in team mode behind HAProxy (round-robin),
// sharing Redis; the identity-provider emulator is the company's authorization server, and the lab
// platform trusts it for ID tokens issued to the platform, which the replicas obtain by exchanging each
// person's token for this server at it (RFC 8693 token exchange). Two people, each with a
// real SDK v2 client that signs in through the authorization server, use the one endpoint: each acts
// as themselves on the platform (its audit log names them, whichever replica served), and a request
// without a valid token gets 401 pointing at the protected resource metadata.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FleetBalancer, readStats, startBalancer } from "../../packages/emulators/src/fleet/haproxy.js";
import { findProgram } from "../../packages/emulators/src/fleet/programs.js";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { type HttpServerProcess, MODERN_PROTOCOL, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import {
  HeadlessOAuthProvider,
  registerConfidentialClient,
  signInHeadless,
} from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import { type RunningRedis, startRedis, TEST_STATE_KEY_HEX } from "../support/redis.js";

const REPLICAS = 3;
/** The platform's client at the identity provider: the audience of the ID tokens the tenant takes. */
const PLATFORM_CLIENT = "labdata-platform";
const REDIRECT = "http://127.0.0.1:9/callback";
const HAPROXY = findProgram("haproxy");
const REDIS = findProgram("redis-server");
const MISSING = `${[!REDIS && "redis-server", !HAPROXY && "haproxy"].filter(Boolean).join(" and ")} not found (apt-get install redis-server haproxy): the team fleet test is skipped`;
if (!HAPROXY || !REDIS) console.warn(MISSING);

describe.skipIf(!HAPROXY || !REDIS)("a team on one fleet: everyone signs in and acts as themselves", () => {
  const emulator = useLabdataEmulator();
  let idp: IdentityProvider;
  let redis: RunningRedis;
  let replicas: HttpServerProcess[] = [];
  let balancer: FleetBalancer;
  let endpoint: string;
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-team-fleet-"));

  beforeAll(async () => {
    idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}/mcp`;
    // The platform trusts the company's identity provider, for ID tokens issued to the platform's client.
    emulator.admin.updateSettings(emulator.demo.tenant, {
      oidc: { configurationUrl: idp.configurationUrl, audience: PLATFORM_CLIENT },
    });
    const exchanger = await registerConfidentialClient(idp);
    redis = await startRedis();
    replicas = await Promise.all(
      Array.from({ length: REPLICAS }, () =>
        startHttpBin("labdata-mcp", {
          LABDATA_BASE_URL: emulator.demo.baseUrl,
          LABDATA_TOKEN_EXCHANGE_AUDIENCE: PLATFORM_CLIENT,
          LABDATA_TOKEN_EXCHANGE_CLIENT_ID: exchanger.id,
          LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET: exchanger.secret,
          MCP_AUTH_ISSUER: idp.issuer,
          MCP_AUTH_AUDIENCE: endpoint,
          REDIS_URL: redis.url,
          MCP_STATE_KEY: TEST_STATE_KEY_HEX,
          MCP_STATE_PREFIX: "lab-mcp:team:",
        }),
      ),
    );
    balancer = await startBalancer(
      HAPROXY as string,
      dir,
      [
        {
          name: "labdata_mcp",
          port,
          replicaPorts: replicas.map((replica) => Number(new URL(replica.url).port)),
        },
      ],
      await freePort(),
    );
  });

  afterAll(async () => {
    await balancer?.process.stop();
    for (const replica of replicas) await replica.stop();
    await redis?.stop();
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A person's agent: an SDK v2 client that signs in through the authorization server by itself. */
  async function agentOf(email: string) {
    idp.admin.autoApprove(email);
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT, clientName: `${email}'s agent` });
    await signInHeadless(provider, endpoint);
    const client = new ModernClient(
      { name: "team-fleet-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider }),
    );
    return client;
  }

  it("refuses a request without a token with 401 and the metadata that names the authorization server", async () => {
    const refused = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(
      refused.headers.get("www-authenticate") ?? "",
    )?.[1];
    expect(metadataUrl).toBe(`${new URL(endpoint).origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(metadataUrl as string)).json()) as {
      authorization_servers: string[];
    };
    expect(metadata.authorization_servers).toEqual([idp.issuer]);
  });

  it("each person's calls, on whichever replica, act as that person on the lab platform", async () => {
    const { user: mira, colleague: tom } = emulator.demo;
    const miraAgent = await agentOf(mira.email);
    const tomAgent = await agentOf(tom.email);
    try {
      emulator.admin.clearAuditLog(emulator.demo.tenant);
      const before = (await readStats(balancer.statsUrl)).map((row) => row.sessions);
      const calls: Array<Promise<{ who: string; text: string }>> = [];
      for (let i = 0; i < 6; i++) {
        calls.push(
          miraAgent
            .callTool({ name: "labdata_get_current_user", arguments: {} })
            .then((result) => ({ who: "mira", text: textOf(result).text })),
          tomAgent
            .callTool({ name: "labdata_get_current_user", arguments: {} })
            .then((result) => ({ who: "tom", text: textOf(result).text })),
        );
      }
      for (const { who, text } of await Promise.all(calls)) {
        const person = who === "mira" ? mira : tom;
        const other = who === "mira" ? tom : mira;
        expect(text).toContain(`- **User**: ${person.name} (${person.id})`);
        expect(text).not.toContain(other.id);
      }
      // The platform's own record: twelve requests, six by each person, by their own OIDC sign-in.
      const actors = emulator.admin
        .auditLog(emulator.demo.tenant)
        .filter((entry) => entry.path.endsWith("/users/me"))
        .map((entry) => `${entry.actorUserId} ${entry.authMethod}`);
      expect(actors.sort()).toEqual(
        [...Array(6).fill(`${mira.id} oidc`), ...Array(6).fill(`${tom.id} oidc`)].sort(),
      );
      // And the balancer spread them over the replicas.
      const after = (await readStats(balancer.statsUrl)).map((row) => row.sessions);
      expect(after.filter((count, i) => count > (before[i] ?? 0)).length).toBeGreaterThan(1);
    } finally {
      await miraAgent.close();
      await tomAgent.close();
    }
  });
});

if (!HAPROXY || !REDIS) describe("a team on one fleet", () => it.skip(MISSING, () => {}));
