// A fair share of one operator credential: a team server (and a fleet of two sharing Redis) where
// everyone acts as the operator's API key, so that everyone's calls count in one rate budget on the lab
// platform. One person floods the server with calls; another person's single call still goes out in
// the first window with room, instead of behind the whole flood.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { type HttpServerProcess, MODERN_PROTOCOL, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { HeadlessOAuthProvider, signInHeadless } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import {
  NO_REDIS,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";

const REDIRECT = "http://127.0.0.1:9/callback";
/**
 * The platform's limit here: 10 requests per 10 s window (the server's own idea of the platform's
 * window is 10 s, so its waits are told right), small enough that a flood of 100 takes ten windows.
 */
const LIMIT = { requests: 10, windowMs: 10_000 };
/** Tom's call goes out in the first window that opens after he asked: within one window, and a margin. */
const BOUND_MS = LIMIT.windowMs + 2500;

const emulator = useLabdataEmulator();
let idp: IdentityProvider;

beforeAll(async () => {
  idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  emulator.admin.updateSettings(emulator.demo.tenant, { rateLimit: LIMIT });
});

afterAll(async () => {
  await idp?.close();
});

/** A team server on its own port, whose people all act as the operator's API key `apiKey`. */
async function teamServer(apiKey: string, extra: Record<string, string> = {}) {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  const server = await startHttpBin("labdata-mcp", {
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_API_KEY: apiKey,
    MCP_AUTH_ISSUER: idp.issuer,
    MCP_AUTH_AUDIENCE: endpoint,
    MCP_PORT: String(port),
    MCP_LOG_CALLS: "false",
    ...extra,
  });
  return { server, endpoint };
}

/** A person's agent on `endpoint`: an SDK v2 client signed in through the authorization server. */
async function agentOf(email: string, endpoint: string) {
  idp.admin.autoApprove(email);
  const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT, clientName: `${email}'s agent` });
  await signInHeadless(provider, endpoint);
  const client = new ModernClient(
    { name: "fair-share-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
  );
  await client.connect(
    new ModernStreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider }),
  );
  return client;
}

const whoAmI = (client: ModernClient, timeout: number) =>
  client.callTool({ name: "labdata_get_current_user", arguments: {} }, { timeout });

/** Starts `count` calls of `client` at once; each settles to its text or error, never rejects. */
function flood(client: ModernClient, count: number): Array<Promise<string>> {
  return Array.from({ length: count }, () =>
    whoAmI(client, 120_000).then(
      (result) => textOf(result).text,
      (error: unknown) => String(error),
    ),
  );
}

/** How long one call of `agent` takes, from asking to its answer, which must be the operator's user. */
async function timedCall(agent: ModernClient, operator: { name: string }): Promise<number> {
  const started = performance.now();
  const result = await whoAmI(agent, 3 * BOUND_MS);
  const elapsed = performance.now() - started;
  expect(textOf(result).text).toContain(`- **User**: ${operator.name}`);
  return elapsed;
}

/**
 * Tom's calls while Mira's flood waits, one after the other: how long each took. Without a fair
 * share each is a draw among everyone waiting when a window opens (about one chance in ten here).
 */
async function tomsCalls(tom: ModernClient, operator: { name: string }, count: number): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < count; i++) waits.push(Math.round(await timedCall(tom, operator)));
  return waits;
}

/** Waits until the emulator has served `count` more requests than `before` (the flood is under way). */
async function servedAtLeast(before: number, count: number) {
  const deadline = Date.now() + 10_000;
  while (emulator.admin.auditLog(emulator.demo.tenant).length < before + count) {
    if (Date.now() > deadline) throw new Error("the flood never reached the platform");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("one team server with the operator's key", () => {
  let team: { server: HttpServerProcess; endpoint: string };
  let operator: { name: string; apiKey: string };
  beforeAll(async () => {
    operator = emulator.demo.user;
    team = await teamServer(operator.apiKey);
  });
  afterAll(async () => {
    await team?.server.stop();
  });

  it("Mira's flood of 100 calls delays each of Tom's calls by at most one window", async () => {
    const { user: mira, colleague: tom } = emulator.demo;
    const miraAgent = await agentOf(mira.email, team.endpoint);
    const tomAgent = await agentOf(tom.email, team.endpoint);
    try {
      // Tom's first call lets the server learn the platform's limit from its headers.
      await timedCall(tomAgent, operator);
      const before = emulator.admin.auditLog(emulator.demo.tenant).length;
      const calls = flood(miraAgent, 100);
      await servedAtLeast(before, 9);
      // The window is spent; 91 of Mira's calls wait, nine windows' worth. Tom asks twice.
      const waits = await tomsCalls(tomAgent, operator, 2);
      for (const wait of waits)
        expect(wait, `Tom's calls took ${waits.join(", ")} ms`).toBeLessThan(BOUND_MS);
      await miraAgent.close();
      // Mira's calls that were answered acted as the operator's key, as Tom's did.
      for (const text of await Promise.all(calls)) {
        if (text.startsWith("- **User**")) expect(text).toContain(`- **User**: ${operator.name}`);
      }
    } finally {
      await miraAgent.close().catch(() => undefined);
      await tomAgent.close();
    }
  }, 60_000);
});

describe.skipIf(!REDIS_SERVER)(`two replicas sharing Redis${REDIS_SERVER ? "" : ` (${NO_REDIS})`}`, () => {
  let redis: RunningRedis;
  let replicas: Array<{ server: HttpServerProcess; endpoint: string }> = [];
  // Another key than the first test's: a window of its own on the platform, nothing left to wait for.
  let operator: { name: string; apiKey: string };
  beforeAll(async () => {
    operator = emulator.demo.colleague;
    redis = await startRedis();
    const shared = {
      REDIS_URL: redis.url,
      MCP_STATE_KEY: TEST_STATE_KEY_HEX,
      MCP_STATE_PREFIX: "lab-mcp:fair:",
    };
    replicas = await Promise.all([teamServer(operator.apiKey, shared), teamServer(operator.apiKey, shared)]);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.server.stop();
    await redis?.stop();
  });

  it("Mira's flood through both replicas delays each of Tom's calls on one of them by at most one window", async () => {
    const [one, two] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const { user: mira, colleague: tom } = emulator.demo;
    const miraOnOne = await agentOf(mira.email, one.endpoint);
    const miraOnTwo = await agentOf(mira.email, two.endpoint);
    const tomOnTwo = await agentOf(tom.email, two.endpoint);
    try {
      await timedCall(tomOnTwo, operator);
      const before = emulator.admin.auditLog(emulator.demo.tenant).length;
      const calls = [...flood(miraOnOne, 50), ...flood(miraOnTwo, 50)];
      await servedAtLeast(before, 9);
      const waits = await tomsCalls(tomOnTwo, operator, 2);
      for (const wait of waits)
        expect(wait, `Tom's calls took ${waits.join(", ")} ms`).toBeLessThan(BOUND_MS);
      await miraOnOne.close();
      await miraOnTwo.close();
      await Promise.all(calls);
    } finally {
      await miraOnOne.close().catch(() => undefined);
      await miraOnTwo.close().catch(() => undefined);
      await tomOnTwo.close();
    }
  }, 60_000);
});

if (!REDIS_SERVER) describe("two replicas sharing Redis", () => it.skip(NO_REDIS, () => {}));
