// Team mode for protocols_mcp: each person signs in to the repository as themselves. Two replicas of the
// built bin behind one public address (a tiny proxy the test steers: which replica gets the MCP
// requests, which one the browser's callback), the identity-provider emulator as the MCP authorization
// server, Redis as the shared state. Mira's call asks her to sign in, her callback lands on the other
// replica, and from then on every replica acts as her repository user; Tom signs in as his; neither's
// tokens are in Redis in clear, used for the other, or refreshed more than once for the fleet; a forged
// or replayed callback is refused; protocols_sign_out removes hers only; `forget` removes his.

import { createHash } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { subjectOf } from "../../packages/emulators/src/idp/people.js";
import type { ApplicationInfo } from "../../packages/emulators/src/protocols/index.js";
import { MAX_SIGN_INS_PER_PERSON } from "../../packages/lab-mcp/src/services/protocols/auth/pending-sign-ins.js";
import {
  personDigest,
  protocolsPersonNamesKey,
  sharedSignInName,
} from "../../packages/lab-mcp/src/services/protocols/auth/shared-token-store.js";
import { run } from "../protocols/run-bin.js";
import { type HttpServerProcess, newModernClient, startHttpBin, textOf } from "../support/clients.js";
import { startTestProtocols, type TestProtocols, testCa } from "../support/emulator.js";
import { HeadlessOAuthProvider, registerServerClient, signInHeadless } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import { type BrowserVisit, playBrowser, servedStartingWith, tempHome } from "../support/protocols.js";
import { CookieJar, followRedirects } from "../support/protocols-http.js";
import {
  NO_REDIS,
  openRedisState,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";

if (!REDIS_SERVER) console.warn(NO_REDIS);

const PREFIX = "lab-mcp:per-person-test:";
const YEAR_MS = 365 * 24 * 3600 * 1000;
const MIRA = "mira.patel@acme.example";
const TOM = "tom.becker@acme.example";

/** The load balancer: MCP requests to one replica, the sign-in callback to the one the test chooses. */
class SteeringProxy {
  mcpTo = 0;
  /** Every MCP request to the next replica, as a round-robin balancer without stickiness. */
  alternate = false;
  private turn = 0;
  callbackTo = 1;
  readonly callbacksAt: number[] = [];
  private server: Server | undefined;

  constructor(private readonly replicaPorts: () => number[]) {}

  async listen(port: number): Promise<void> {
    this.server = createServer((req, res) => {
      const callback = (req.url ?? "").startsWith("/oauth/protocols/callback");
      const to = callback
        ? this.callbackTo
        : this.alternate
          ? this.turn++ % this.replicaPorts().length
          : this.mcpTo;
      if (callback) this.callbacksAt.push(to);
      const upstream = request(
        {
          host: "127.0.0.1",
          port: this.replicaPorts()[to],
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server?.listen(port, "127.0.0.1", resolve));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe.skipIf(!REDIS_SERVER)("each person signs in to the protocol repository as themselves", () => {
  let emulator: TestProtocols;
  let idp: IdentityProvider;
  let redis: RunningRedis;
  let raw: Redis;
  let app: ApplicationInfo;
  let proxy: SteeringProxy;
  let endpoint: string;
  let replicas: HttpServerProcess[] = [];
  let env: Record<string, string>;
  const clients: ModernClient[] = [];

  beforeAll(async () => {
    [emulator, idp, redis] = await Promise.all([
      startTestProtocols(),
      startIdentityProvider({ ca: testCa() }),
      startRedis(),
    ]);
    raw = new Redis(redis.url);
    const publicPort = await freePort();
    const origin = `http://127.0.0.1:${publicPort}`;
    endpoint = `${origin}/mcp`;
    app = emulator.admin.createApplication({
      owner: "ada-okafor",
      redirectUri: `${origin}/oauth/protocols/callback`,
      name: "lab-mcp team server",
    });
    const home = tempHome();
    env = {
      HOME: home.dir,
      XDG_CONFIG_HOME: home.xdgConfig,
      PROTOCOLS_BASE_URL: emulator.url,
      PROTOCOLS_CLIENT_ID: app.clientId,
      PROTOCOLS_CLIENT_SECRET: app.clientSecret,
      PROTOCOLS_REDIRECT_URI: app.redirectUri,
      PROTOCOLS_DOWNLOAD_DIR: home.downloads,
      MCP_AUTH_ISSUER: idp.issuer,
      MCP_AUTH_AUDIENCE: endpoint,
      REDIS_URL: redis.url,
      MCP_STATE_PREFIX: PREFIX,
      MCP_STATE_KEY: TEST_STATE_KEY_HEX,
      ...(await registerServerClient(idp, origin)),
    };
    replicas = await Promise.all([startHttpBin("protocols-mcp", env), startHttpBin("protocols-mcp", env)]);
    proxy = new SteeringProxy(() => replicas.map((replica) => Number(new URL(replica.url).port)));
    await proxy.listen(publicPort);
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await proxy?.close();
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    raw?.disconnect();
    await redis?.stop();
    await idp?.close();
    await emulator?.close();
  });

  /**
   * A person's SDK v2 client, signed in to the MCP server; with `opensPages` it opens sign-in pages
   * (URL elicitation) as `repositoryUser`.
   */
  async function personClient(email: string, repositoryUser: string, opensPages = true) {
    idp.admin.autoApprove(email);
    const provider = new HeadlessOAuthProvider({
      redirectUrl: "http://127.0.0.1:9/callback",
      clientName: `${email}'s agent`,
    });
    await signInHeadless(provider, endpoint);
    const client = newModernClient(opensPages ? { elicitation: { url: {} } } : {});
    const visits: BrowserVisit[] = [];
    const browser = { decision: "approve" as "approve" | "deny" };
    if (opensPages)
      client.setRequestHandler("elicitation/create", async (request) => {
        const params = request.params as { mode?: string; url: string };
        expect(params.mode).toBe("url");
        // The person at the browser signs in at the identity provider as themselves.
        idp.admin.autoApprove(email);
        visits.push(
          await playBrowser(emulator, params.url, { user: repositoryUser, decision: browser.decision }),
        );
        return { action: "accept" };
      });
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider }),
    );
    clients.push(client);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      textOf(await client.callTool({ name, arguments: args }));
    return { call, visits, browser, subject: `${idp.issuer} ${subjectOf(email)}`, client };
  }

  const owner = () => ({ baseUrl: emulator.url, clientId: app.clientId });
  /** The servers' key naming people, from their MCP_STATE_KEY. */
  const NAMES_KEY = protocolsPersonNamesKey(TEST_STATE_KEY);

  /** A person's stored pair, read (and decrypted) through a shared state of the test's own. */
  async function storedPair(subject: string) {
    const state = await openRedisState(redis, { prefix: PREFIX, key: TEST_STATE_KEY });
    try {
      const secret = await state.secrets.read(sharedSignInName(owner(), personDigest(NAMES_KEY, subject)));
      return secret
        ? (JSON.parse(secret.value) as { access_token: string; refresh_token: string })
        : undefined;
    } finally {
      await state.close();
    }
  }

  /** Every key under the test prefix and every string value as Redis holds it. */
  async function everythingInRedis(): Promise<string> {
    const keys = await raw.keys(`${PREFIX}*`);
    const held: string[] = [...keys];
    for (const key of keys) {
      const type = await raw.type(key);
      if (type === "string") held.push((await raw.get(key)) ?? "");
      if (type === "hash") held.push(...Object.entries(await raw.hgetall(key)).flat());
    }
    return held.join("\n");
  }

  let mira: Awaited<ReturnType<typeof personClient>>;
  let tom: Awaited<ReturnType<typeof personClient>>;

  it("Mira is asked to sign in; her callback lands on the other replica; every replica then acts as her", async () => {
    mira = await personClient(MIRA, "mei-chen");
    proxy.mcpTo = 0;
    const before = await mira.call("protocols_get_profile");
    expect(before.isError).toBe(true);
    expect(before.text).toBe(
      "Error: Not signed in to the protocol repository. Call protocols_sign_in to sign in to the protocol repository as " +
        "yourself, then try again.",
    );

    proxy.callbackTo = 1;
    const signedIn = await mira.call("protocols_sign_in");
    expect(signedIn.isError, signedIn.text).toBe(false);
    expect(signedIn.text).toMatch(
      /^Signed in to the protocol repository as Mei Chen \(mei-chen\)\. The sign-in is yours alone/,
    );
    expect(proxy.callbacksAt).toEqual([1]);
    expect(mira.visits[0]?.listenerStatus).toBe(200);
    expect(mira.visits[0]?.listenerPage).toContain(
      "signed in to the protocol repository as Mei Chen (mei-chen)",
    );

    for (const replica of [1, 0]) {
      proxy.mcpTo = replica;
      const profile = await mira.call("protocols_get_profile");
      expect(profile.isError, profile.text).toBe(false);
      expect(profile.text).toContain("mei-chen");
    }
  });

  it("Tom, whose client cannot open pages, gets the address in the answer, signs in as his own user, and never sees hers", async () => {
    tom = await personClient(TOM, "tomas-garcia", false);
    proxy.mcpTo = 1;
    proxy.callbackTo = 0;
    const asked = await tom.client.callTool({ name: "protocols_sign_in", arguments: {} });
    const url = (asked.structuredContent as { sign_in_url: string | null }).sign_in_url;
    if (!url) throw new Error(`no sign-in address in the answer: ${textOf(asked).text}`);
    expect(textOf(asked).text).toContain(url);
    expect((await tom.call("protocols_get_profile")).text).toMatch(/Not signed in/);
    // A link checker's HEAD on the callback does not use up his sign-in.
    expect(url.startsWith(`${endpoint.replace("/mcp", "")}/oauth/protocols/connect/`)).toBe(true);
    const state = new URL(url).pathname.split("/").at(-1) ?? "";
    const head = await fetch(
      `${endpoint.replace("/mcp", "")}/oauth/protocols/callback?state=${state}&code=x`,
      {
        method: "HEAD",
      },
    );
    expect(head.status).toBe(200);
    const visit = await playBrowser(emulator, url, { user: "tomas-garcia" });
    expect(visit.listenerStatus).toBe(200);
    expect(visit.listenerPage).toContain("(tomas-garcia)");
    expect(proxy.callbacksAt).toEqual([1, 0, 0]);
    for (const replica of [0, 1]) {
      proxy.mcpTo = replica;
      const his = await tom.call("protocols_get_profile");
      expect(his.text).toContain("tomas-garcia");
      expect(his.text).not.toContain("mei-chen");
      expect((await mira.call("protocols_get_profile")).text).not.toContain("tomas-garcia");
    }
  });

  it("keeps each person's tokens encrypted, under a digest of their subject, never the subject itself", async () => {
    const hers = await storedPair(mira.subject);
    const his = await storedPair(tom.subject);
    if (!hers || !his) throw new Error("a sign-in is missing from the shared state");
    expect(hers.access_token).not.toBe(his.access_token);
    const inRedis = await everythingInRedis();
    for (const secret of [hers.access_token, hers.refresh_token, his.access_token, his.refresh_token])
      expect(inRedis).not.toContain(secret);
    for (const subject of [mira.subject, tom.subject]) {
      expect(inRedis).not.toContain(subject.split(" ")[1]);
      // Each person's own rate budget, shared by both replicas: named by the digest of their sign-in.
      const name = sharedSignInName(owner(), personDigest(NAMES_KEY, subject));
      const id = `oauth:${name.slice(name.lastIndexOf(":") + 1)}`;
      expect((await raw.keys(`${PREFIX}budget:*`)).filter((key) => key.includes(id)).length).toBeGreaterThan(
        0,
      );
    }
  });

  it("names no key by an unkeyed digest of a subject: without MCP_STATE_KEY nobody can test subjects", async () => {
    const keys = (await raw.keys(`${PREFIX}*`)).join("\n");
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    for (const subject of [mira.subject, tom.subject]) {
      // What anyone can compute from a guessed subject: its digests, and the names built on them.
      const unkeyed = [sha256(subject), sha256(`lab-mcp person\n${subject}`)];
      for (const digest of unkeyed) {
        expect(keys).not.toContain(digest.slice(0, 16));
        const name = sharedSignInName(owner(), digest.slice(0, 32));
        expect(keys).not.toContain(name.slice(name.lastIndexOf(":") + 1));
      }
      // The keyed names are there: each person's sign-in is found only with the key.
      const keyed = sharedSignInName(owner(), personDigest(NAMES_KEY, subject));
      expect(keys).toContain(keyed.slice(keyed.lastIndexOf(":") + 1));
    }
  });

  it("renews Mira's expired sign-in once for the whole fleet, under concurrent calls on both replicas", async () => {
    const before = await storedPair(mira.subject);
    const his = await storedPair(tom.subject);
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.faults.inject({ kind: "delay", ms: 400 }, { path: "/api/v3/oauth/token", times: 2 });
    emulator.requests.clear();
    const calls = [0, 1, 0, 1].map(async (replica) => {
      proxy.mcpTo = replica;
      return mira.call("protocols_search", { keyword: "western blot", limit: 1 });
    });
    for (const result of await Promise.all(calls)) expect(result.isError, result.text).toBe(false);
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    emulator.faults.clear();
    const after = await storedPair(mira.subject);
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    // Tom's sign-in was not touched by hers.
    expect(await storedPair(tom.subject)).toEqual(his);
  });

  it("refuses a forged callback state and a replayed callback", async () => {
    const forged = await fetch(
      `${endpoint.replace("/mcp", "")}/oauth/protocols/callback?state=forged&code=x`,
    );
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("belongs to no sign-in in progress");
    const used = mira.visits[0]?.redirect;
    if (!used) throw new Error("Mira's callback address was not seen");
    const replayed = await fetch(used);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("belongs to no sign-in in progress");
    expect((await mira.call("protocols_get_profile")).text).toContain("mei-chen");
  });

  it("protocols_sign_out removes Mira's sign-in only", async () => {
    proxy.mcpTo = 1;
    const out = await mira.client.callTool({ name: "protocols_sign_out", arguments: {} });
    expect(out.structuredContent).toEqual({ removed: true, from: "your_sign_in" });
    expect(textOf(out).text).toMatch(/^Signed out of the protocol repository: removed your own sign-in/);
    expect(await storedPair(mira.subject)).toBeUndefined();
    proxy.mcpTo = 0;
    expect((await mira.call("protocols_get_profile")).text).toMatch(/Not signed in/);
    expect((await tom.call("protocols_get_profile")).text).toContain("tomas-garcia");
    const again = await mira.client.callTool({ name: "protocols_sign_out", arguments: {} });
    expect(again.structuredContent).toEqual({ removed: false, from: "your_sign_in" });
    // Denied at the repository: the waiting call hears why, and nothing is stored.
    mira.browser.decision = "deny";
    const denied = await mira.call("protocols_sign_in");
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(
      /^Error: The sign-in was not completed in the browser \(.+\)\. Call protocols_sign_in/,
    );
    expect(await storedPair(mira.subject)).toBeUndefined();
  });

  it("refuses to start in team mode when PROTOCOLS_REDIRECT_URI is not the server's public callback", async () => {
    const starting = startHttpBin("protocols-mcp", {
      ...env,
      PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:9/callback",
    });
    await expect(starting).rejects.toThrow(
      `PROTOCOLS_REDIRECT_URI must be ${app.redirectUri} (this server's public callback`,
    );
  });

  it("`protocols-mcp forget --subject` removes Tom's sign-in", async () => {
    const sub = subjectOf(TOM);
    const forgetting = run(["forget", "--subject", sub], env);
    expect(await forgetting.exit, forgetting.stderr()).toBe(0);
    expect(forgetting.stdout()).toContain("Forgotten: deleted that person's sign-in");
    expect(await storedPair(tom.subject)).toBeUndefined();
    expect((await tom.call("protocols_get_profile")).text).toMatch(/Not signed in/);
    const twice = run(["forget", "--subject", sub], env);
    expect(await twice.exit).toBe(0);
    expect(twice.stdout()).toContain("Nothing to forget");
    const without = run(["forget"], env);
    expect(await without.exit).toBe(2);
    expect(without.stderr()).toContain("forget needs --subject");
  });

  it("a sign-in whose retry lands on the other replica (round-robin) waits for the same sign-in, not a new one", async () => {
    const dana = await personClient("dana.whitfield@acme.example", "ada-okafor");
    proxy.alternate = true;
    try {
      const signedIn = await dana.call("protocols_sign_in");
      expect(signedIn.isError, signedIn.text).toBe(false);
      expect(signedIn.text).toMatch(/^Signed in to the protocol repository as .*\(ada-okafor\)/);
      expect(dana.visits).toHaveLength(1);
      const profile = await dana.call("protocols_get_profile");
      expect(profile.text).toContain("ada-okafor");
    } finally {
      proxy.alternate = false;
    }
  });
  it("a forwarded sign-in link, or the repository address behind it, signs no one in; the asker's own browser does", async () => {
    const origin = endpoint.replace("/mcp", "");
    const asker = await personClient(TOM, "tomas-garcia", false);
    proxy.mcpTo = 0;
    proxy.callbackTo = 1;
    const asked = await asker.client.callTool({ name: "protocols_sign_in", arguments: {} });
    const link = (asked.structuredContent as { sign_in_url: string | null }).sign_in_url ?? "";
    expect(link.startsWith(`${origin}/oauth/protocols/connect/`)).toBe(true);

    // Tom forwards it to Mira: her browser signs in at the identity provider as her, and the link refuses.
    idp.admin.autoApprove(MIRA);
    const refused = await followRedirects(new CookieJar(), link, emulator.url);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("This sign-in link is not yours");
    expect(refused.text).toContain(`the assistant of ${TOM}`);
    expect(refused.text).toContain(`(${MIRA})`);
    expect(refused.url.startsWith(emulator.url)).toBe(false);

    // His own browser goes on to the repository, with a short-lived cookie bound to this sign-in.
    idp.admin.autoApprove(TOM);
    const onward = await followRedirects(new CookieJar(), link, emulator.url);
    expect(onward.url.startsWith(`${emulator.url}/api/v3/oauth/authorize?`)).toBe(true);
    const bound = onward.setCookies.find((cookie) => cookie.startsWith("__Host-lab_mcp_connect="));
    expect(bound).toMatch(/; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const person = onward.setCookies.find((cookie) => cookie.startsWith("__Host-lab_mcp_person="));
    expect(person).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);

    // He forwards the repository's address instead: Mira approves it there, and her browser comes back
    // to the callback without the cookie. Nothing is signed in, and the sign-in is over: its code was
    // discarded, so whoever holds that address cannot finish it in another browser either.
    const forwarded = await playBrowser(emulator, onward.url, { user: "mei-chen" });
    expect(forwarded.listenerStatus).toBe(403);
    expect(forwarded.listenerPage).toContain("came back to a browser that did not start it");
    expect(forwarded.listenerPage).not.toContain("mei-chen");
    expect(await storedPair(asker.subject)).toBeUndefined();
    expect((await asker.call("protocols_get_profile")).text).toMatch(/Not signed in/);
    const ended = await playBrowser(emulator, link, { user: "tomas-garcia" });
    expect(ended.serverStatus).toBe(400);
    expect(ended.serverPage).toContain("belongs to no sign-in in progress");
    expect(await storedPair(asker.subject)).toBeUndefined();

    // A new sign-in, in his own browser, signs him in.
    const again = await asker.client.callTool({ name: "protocols_sign_in", arguments: {} });
    const newLink = (again.structuredContent as { sign_in_url: string | null }).sign_in_url ?? "";
    expect(newLink).not.toBe(link);
    const own = await playBrowser(emulator, newLink, { user: "tomas-garcia" });
    expect(own.listenerStatus).toBe(200);
    expect(own.listenerPage).toContain("(tomas-garcia)");
    expect((await asker.call("protocols_get_profile")).text).toContain("tomas-garcia");
  });

  it("one person's sign-ins in progress are capped: a flood of his ends his own oldest, never Mira's", async () => {
    const mira = await personClient(MIRA, "mei-chen", false);
    const tom = await personClient(TOM, "tomas-garcia", false);
    const linkOf = async (person: { client: ModernClient }) => {
      const asked = await person.client.callTool({ name: "protocols_sign_in", arguments: {} });
      return (asked.structuredContent as { sign_in_url: string | null }).sign_in_url ?? "";
    };
    const pendingOf = async (link: string) => {
      const state = link.slice(link.lastIndexOf("/") + 1);
      const digest = createHash("sha256").update(state).digest("hex").slice(0, 32);
      const shared = await openRedisState(redis, { prefix: PREFIX, key: TEST_STATE_KEY });
      try {
        return {
          pending: await shared.secrets.read(`protocols:pending:${digest}`),
          outcome: await shared.secrets.read(`protocols:pending:${digest}:outcome`),
        };
      } finally {
        await shared.close();
      }
    };
    const hers = await linkOf(mira);
    const his: string[] = [];
    for (let n = 0; n < 12; n++) his.push(await linkOf(tom));
    expect((await pendingOf(hers)).pending).toBeDefined();
    const kept = [];
    for (const link of his) if ((await pendingOf(link)).pending) kept.push(link);
    expect(kept).toEqual(his.slice(-MAX_SIGN_INS_PER_PERSON));
    const ended = await pendingOf(his[0] ?? "");
    expect(ended.outcome?.value).toContain("A newer sign-in of yours replaced this one");
  });

  it("while Redis is away, a sign-out is an error that says so, and the replica stops using the sign-in it read", async () => {
    const dana = await personClient("dana.whitfield@acme.example", "ada-okafor");
    proxy.mcpTo = 0;
    expect((await dana.call("protocols_get_profile")).text).toContain("ada-okafor");
    await redis.kill();
    try {
      const out = await dana.call("protocols_sign_out");
      expect(out.isError).toBe(true);
      expect(out.text).toBe(
        "Error: The shared state (Redis) is out of reach, so the removal could not be confirmed: what is " +
          "stored there stays and is used again once it answers. Try again when it is back.",
      );
      expect((await dana.call("protocols_get_profile")).text).toMatch(/Not signed in/);
    } finally {
      await redis.restart();
    }
  });
});
