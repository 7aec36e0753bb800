// The operator's OAuth sign-in shared by a fleet of protocols-mcp replicas through Redis: the operator
// signs in with `protocols-mcp login` (REDIS_URL set), the replicas are the built bin over stdio, each
// its own process with its own token file (which stays absent: Redis is the only channel). The
// repository rotates the pair on every refresh, so a renewal must reach its token endpoint exactly once
// for the whole fleet; a replica with a stale pair reloads; the lock of a replica that died runs out and
// another takes over; Redis never holds a token in plain text; `logout` deletes the fleet's sign-in.
import { existsSync } from "node:fs";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApplicationInfo } from "../../packages/emulators/src/protocols/index.js";
import {
  renewalLockName,
  sharedSignInName,
} from "../../packages/lab-mcp/src/services/protocols/auth/shared-token-store.js";
import { callText, connectStdio, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { freePort } from "../support/ports.js";
import {
  connectWithBrowser,
  loopbackApp,
  oauthEnv,
  playBrowser,
  servedStartingWith,
  tempHome,
} from "../support/protocols.js";
import {
  NO_REDIS,
  openRedisState,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";
import { run } from "./run-bin.js";

if (!REDIS_SERVER) console.warn(NO_REDIS);

const YEAR_MS = 365 * 24 * 3600 * 1000;
const PREFIX = "lab-mcp:oauth-test:";
type Replica = Awaited<ReturnType<typeof connectStdio>>;

describe.skipIf(!REDIS_SERVER)("the operator's sign-in shared by a fleet through Redis", () => {
  const emulator = useProtocolsEmulator();
  let redis: RunningRedis;
  let raw: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  const where = () => `the shared state at ${redis.url} (prefix ${PREFIX})`;

  /** The settings of one replica (or of login / logout): the fleet's Redis, and a home of its own. */
  function fleetEnv(app: ApplicationInfo) {
    const home = tempHome();
    const env = oauthEnv(emulator, app, home, {
      HOME: home.dir,
      XDG_CONFIG_HOME: home.xdgConfig,
      REDIS_URL: redis.url,
      MCP_STATE_PREFIX: PREFIX,
      MCP_STATE_KEY: TEST_STATE_KEY_HEX,
    });
    return { env, home };
  }

  /** `protocols-mcp login` as `user`; returns what it printed. */
  async function login(app: ApplicationInfo, user = "mei-chen") {
    const { env, home } = fleetEnv(app);
    const running = run(["login", "--no-browser"], env);
    await playBrowser(emulator, await running.authorizeUrl, { user });
    expect(await running.exit, running.stderr()).toBe(0);
    return { stdout: running.stdout(), stderr: running.stderr(), home };
  }

  /** `count` replicas with the same settings, each its own process, home and token file. */
  async function replicasOf(app: ApplicationInfo, count: number) {
    const started = await Promise.all(
      Array.from({ length: count }, async () => {
        const { env, home } = fleetEnv(app);
        return { replica: await connectStdio("protocols-mcp", env), home };
      }),
    );
    return {
      replicas: started.map((one) => one.replica),
      tokenFiles: started.flatMap((one) => [one.home.tokenFile, one.home.defaultTokenFile]),
      close: async () => {
        for (const { replica } of started) await replica.close();
      },
    };
  }

  /** The fleet's stored pair, read (and decrypted) through a RedisState of the test's own. */
  async function storedPair(app: ApplicationInfo) {
    const state = await openRedisState(redis, { prefix: PREFIX, key: TEST_STATE_KEY });
    try {
      const secret = await state.secrets.read(
        sharedSignInName({ baseUrl: emulator.url, clientId: app.clientId }),
      );
      if (!secret) return undefined;
      return JSON.parse(secret.value) as { access_token: string; refresh_token: string };
    } finally {
      await state.close();
    }
  }

  /** Every key under the test prefix and every value as Redis holds it. */
  async function everythingInRedis(): Promise<string> {
    const keys = await raw.keys(`${PREFIX}*`);
    const held: string[] = [...keys];
    for (const key of keys) {
      const type = await raw.type(key);
      if (type === "string") held.push((await raw.get(key)) ?? "");
      if (type === "hash") held.push(...Object.entries(await raw.hgetall(key)).flat());
      if (type === "zset") held.push(...(await raw.zrange(key, "0", "-1")));
      if (type === "list") held.push(...(await raw.lrange(key, 0, -1)));
      if (type === "set") held.push(...(await raw.smembers(key)));
    }
    return held.join("\n");
  }

  /** The rate budgets of OAuth sign-ins on the repository's API. */
  async function oauthApiBudgets(): Promise<string[]> {
    return (await raw.keys(`${PREFIX}budget:*`)).filter(
      (key) => key.includes(":oauth:") && key.endsWith(":api"),
    );
  }

  /** Waits (bounded) until `done`. */
  async function until(done: () => Promise<boolean>, tries = 100): Promise<void> {
    for (let i = 0; i < tries; i++) {
      if (await done()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("waited in vain");
  }

  /** Whether the repository takes an access token. */
  async function accepted(accessToken: string): Promise<boolean> {
    const response = await fetch(`${emulator.url}/api/v3/session/profile`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    return response.ok;
  }

  const profile = (replica: Replica) => callText(replica, "protocols_get_profile");

  it("login stores the sign-in encrypted in the shared state, every replica uses it, logout deletes it", async () => {
    const app = await loopbackApp(emulator);
    const signedIn = await login(app);
    expect(signedIn.stdout.trim().split("\n").at(-1)).toBe(
      `Signed in to the protocol repository as Mei Chen (mei-chen). Tokens stored encrypted in ${where()}.`,
    );
    expect(existsSync(signedIn.home.tokenFile)).toBe(false);
    expect(existsSync(signedIn.home.defaultTokenFile)).toBe(false);
    const pair = await storedPair(app);
    if (!pair) throw new Error("nothing stored in the shared state");
    const secrets = [pair.access_token, pair.refresh_token, app.clientSecret, TEST_STATE_KEY_HEX];
    for (const secret of secrets) {
      expect(signedIn.stdout).not.toContain(secret);
      expect(signedIn.stderr).not.toContain(secret);
    }
    const inRedis = await everythingInRedis();
    expect(inRedis).toContain(sharedSignInName({ baseUrl: emulator.url, clientId: app.clientId }));
    for (const secret of secrets) expect(inRedis).not.toContain(secret);

    const fleet = await replicasOf(app, 2);
    for (const replica of fleet.replicas)
      expect((await profile(replica)).text).toContain("Mei Chen (mei-chen)");
    for (const file of fleet.tokenFiles) expect(existsSync(file)).toBe(false);

    const { env } = fleetEnv(app);
    const logout = run(["logout"], env);
    expect(await logout.exit).toBe(0);
    expect(logout.stdout()).toBe(`Signed out: deleted the stored sign-in from ${where()}.\n`);
    expect(await storedPair(app)).toBeUndefined();
    for (const replica of fleet.replicas) {
      expect((await profile(replica)).text).toMatch(/^Error: Not signed in to the protocol repository\./);
    }
    const again = run(["logout"], env);
    expect(await again.exit).toBe(0);
    expect(again.stdout()).toBe(`Not signed in: there is no sign-in in ${where()}.\n`);
    await fleet.close();
    for (const replica of fleet.replicas)
      for (const secret of secrets) expect(replica.stderr()).not.toContain(secret);
  });

  it("acts as whoever signed in last: a sign-out and a sign-in as someone else count at once on every replica", async () => {
    const app = await loopbackApp(emulator);
    await login(app);
    const fleet = await replicasOf(app, 2);
    for (const replica of fleet.replicas)
      expect((await profile(replica)).text).toContain("Mei Chen (mei-chen)");
    const { env } = fleetEnv(app);
    expect(await run(["logout"], env).exit).toBe(0);
    for (const replica of fleet.replicas)
      expect((await profile(replica)).text).toMatch(/^Error: Not signed in to the protocol repository\./);
    // Tomás signs the fleet in: the sign-in has the same name in the shared state (and so the same rate
    // budget), but every replica must sign with his tokens now, never with Mei's it held before.
    await login(app, "tomas-garcia");
    emulator.requests.clear();
    for (const replica of fleet.replicas) {
      const me = (await profile(replica)).text;
      expect(me).toContain("(tomas-garcia)");
      expect(me).not.toContain("mei-chen");
    }
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(0);
    await fleet.close();
  });

  it("renews once for the whole fleet when the token expires under concurrent calls on every replica", async () => {
    const app = await loopbackApp(emulator);
    const budgetsBefore = await oauthApiBudgets();
    await login(app);
    const before = await storedPair(app);
    const fleet = await replicasOf(app, 3);
    emulator.clock.advance(YEAR_MS + 60_000);
    // A slow token endpoint: every replica meets the expired token while the renewal is under way.
    emulator.faults.inject({ kind: "delay", ms: 500 }, { path: "/api/v3/oauth/token", times: 3 });
    emulator.requests.clear();
    const calls = fleet.replicas.flatMap((replica) =>
      Array.from({ length: 4 }, (_, i) =>
        callText(replica, "protocols_search", { keyword: "western blot", limit: 1, offset: i }),
      ),
    );
    for (const result of await Promise.all(calls)) expect(result.isError, result.text).toBe(false);
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    emulator.faults.clear();

    // The renewed pair is the fleet's, stored encrypted; the old one is dead.
    const after = await storedPair(app);
    if (!before || !after) throw new Error("nothing stored in the shared state");
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(await accepted(after.access_token)).toBe(true);
    expect(await accepted(before.access_token)).toBe(false);
    const inRedis = await everythingInRedis();
    for (const secret of [after.access_token, after.refresh_token]) expect(inRedis).not.toContain(secret);
    // One rate budget for the fleet's sign-in, login's and every replica's (not one per process).
    const signInDigest = sharedSignInName({ baseUrl: emulator.url, clientId: app.clientId })
      .split(":")
      .at(-1);
    const apiBudgets = (await oauthApiBudgets()).filter((key) => !budgetsBefore.includes(key));
    expect(apiBudgets).toEqual([`${PREFIX}budget:protocols:${emulator.url}:oauth:${signInDigest}:api`]);
    for (const file of fleet.tokenFiles) expect(existsSync(file)).toBe(false);
    await fleet.close();
  });

  it("a replica holding a stale pair reloads the stored one instead of sending its dead refresh token", async () => {
    const app = await loopbackApp(emulator);
    await login(app);
    const fleet = await replicasOf(app, 2);
    const [one, two] = fleet.replicas as [Replica, Replica];
    expect((await profile(two)).text).toContain("Mei Chen (mei-chen)");
    // One renews: the pair two holds in memory is dead at the repository now.
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    expect((await profile(one)).text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    emulator.requests.clear();
    expect((await profile(two)).text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(0);
    expect(servedStartingWith(emulator, "/api/v3/session/profile")).toBe(1); // never refused
    await fleet.close();
  });

  it("takes over the renewal lock of a replica that died holding it, once the lock runs out", async () => {
    const app = await loopbackApp(emulator);
    await login(app);
    const fleet = await replicasOf(app, 2);
    const owner = { baseUrl: emulator.url, clientId: app.clientId };
    // A replica took the lock to renew and died: the lock stays until its time runs out.
    const dead = await openRedisState(redis, { prefix: PREFIX, key: TEST_STATE_KEY });
    const ttlMs = 1500;
    const takenAt = Date.now();
    expect(await dead.secrets.tryLock(renewalLockName(owner), ttlMs)).toBeDefined();
    await dead.close();
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    const results = await Promise.all(fleet.replicas.map((replica) => profile(replica)));
    for (const result of results) expect(result.text).toContain("Mei Chen (mei-chen)");
    const renewals = emulator.requests.entries().filter((entry) => entry.path === "/api/v3/oauth/token");
    expect(renewals).toHaveLength(1);
    // Not before the dead replica's lock ran out.
    expect(renewals[0]?.at.getTime()).toBeGreaterThanOrEqual(takenAt + ttlMs);
    await fleet.close();
  });

  it("goes on with the sign-in it holds while Redis is out of reach, and gives its renewal to the fleet when Redis is back", async () => {
    const app = await loopbackApp(emulator);
    await login(app);
    const fleet = await replicasOf(app, 2);
    const [one, two] = fleet.replicas as [Replica, Replica];
    for (const replica of fleet.replicas)
      expect((await profile(replica)).text).toContain("Mei Chen (mei-chen)");
    // The replicas lose Redis (their connections dropped, new ones refused), which keeps its data;
    // the token expires; one renews in its own state.
    await raw.call("CONFIG", "SET", "maxclients", "1");
    await raw.call("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
    try {
      emulator.clock.advance(YEAR_MS + 60_000);
      emulator.requests.clear();
      expect((await profile(one)).text).toContain("Mei Chen (mei-chen)");
      expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    } finally {
      await raw.call("CONFIG", "SET", "maxclients", "10000");
    }
    // Redis takes them again.
    await until(async () => fleet.replicas.every((replica) => replica.stderr().includes("sharing resumed")));
    // Redis answers again, still with the pair one rotated away from: one puts the live pair back, and
    // two takes it instead of sending its dead refresh token.
    expect((await profile(one)).text).toContain("Mei Chen (mei-chen)");
    expect((await profile(two)).text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    const stored = await storedPair(app);
    expect(stored && (await accepted(stored.access_token))).toBe(true);
    await fleet.close();
  });

  it("protocols_sign_in on a server with REDIS_URL stores the sign-in in the shared state for every replica", async () => {
    const app = await loopbackApp(emulator);
    const state = await openRedisState(redis, { prefix: PREFIX, key: TEST_STATE_KEY });
    const signer = await connectWithBrowser(emulator, fleetEnv(app).env, "mei-chen", state);
    const signedIn = await signer.client.callTool({ name: "protocols_sign_in", arguments: {} });
    expect(signedIn.structuredContent).toEqual({
      username: "mei-chen",
      name: "Mei Chen",
      kept_in: "shared_state",
      token_file: null,
      sign_in_url: null,
    });
    expect(textOf(signedIn).text).toBe(
      `Signed in to the protocol repository as Mei Chen (mei-chen). The tokens are stored encrypted in ${where()} ` +
        "and renew themselves; every replica of this server now works with this sign-in.",
    );
    const fleet = await replicasOf(app, 1);
    const [other] = fleet.replicas as [Replica];
    expect((await profile(other)).text).toContain("Mei Chen (mei-chen)");
    for (const file of fleet.tokenFiles) expect(existsSync(file)).toBe(false);
    await fleet.close();
    await signer.close();
    await state.close();
  });

  it("login with Redis out of reach says so in one line before any sign-in starts, and exits 1", async () => {
    const app = await loopbackApp(emulator);
    const port = await freePort();
    const { env } = fleetEnv(app);
    const login = run(["login", "--no-browser"], { ...env, REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(await login.exit).toBe(1);
    expect(login.stdout()).toBe("");
    const [line, ...more] = login.stderr().split("\n");
    expect(more).toEqual([""]);
    expect(line).toMatch(
      new RegExp(
        `^protocols-mcp login: Cannot reach Redis at redis://127\\.0\\.0\\.1:${port} \\([^)]+\\); start it, fix ` +
          "REDIS_URL, or unset REDIS_URL to keep state in this process\\. Nothing was signed in\\.$",
      ),
    );
    expect(login.stderr()).not.toContain(TEST_STATE_KEY_HEX);
  });

  it("logout with REDIS_URL needs to know whose sign-in to delete", async () => {
    const { env } = fleetEnv(await loopbackApp(emulator));
    const {
      PROTOCOLS_CLIENT_ID: _id,
      PROTOCOLS_CLIENT_SECRET: _secret,
      PROTOCOLS_REDIRECT_URI: _uri,
      ...noApp
    } = env;
    const logout = run(["logout"], noApp);
    expect(await logout.exit).toBe(2);
    expect(logout.stderr()).toBe(
      "protocols-mcp: logout with REDIS_URL needs PROTOCOLS_BASE_URL and PROTOCOLS_CLIENT_ID: the shared state keeps " +
        "one sign-in per repository and application. Run 'protocols-mcp --help' for all settings.\n",
    );
  });
});
