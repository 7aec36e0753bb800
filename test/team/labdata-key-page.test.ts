// A team server asks a signed-in person for their lab platform API key on a page at its PUBLIC URL
// (the person's browser is not on the server's machine), and any replica may get the form: here the
// call waits on replica B while the page is posted to replica A (the public URL), through the shared
// state. The key is then the person's on every replica; another person gets a page of their own; a
// foreign Origin or a second answer is refused.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { type HttpServerProcess, MODERN_PROTOCOL, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { HeadlessOAuthProvider, registerServerClient, signInHeadless } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import { CookieJar, followRedirects } from "../support/protocols-http.js";
import {
  NO_REDIS,
  REDIS_SERVER,
  type RunningRedis,
  startRedis,
  TEST_STATE_KEY_HEX,
} from "../support/redis.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe.skipIf(!REDIS_SERVER)("a team server's key page, on its public URL, answered on any replica", () => {
  const emulator = useLabdataEmulator();
  let idp: IdentityProvider;
  let redis: RunningRedis;
  let replicaA: HttpServerProcess;
  let replicaB: HttpServerProcess;
  let publicUrl: string;

  beforeAll(async () => {
    idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
    redis = await startRedis();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}/mcp`;
    const env = {
      ...(await registerServerClient(idp, new URL(publicUrl).origin)),
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      MCP_AUTH_ISSUER: idp.issuer,
      MCP_AUTH_AUDIENCE: publicUrl,
      REDIS_URL: redis.url,
      MCP_STATE_KEY: TEST_STATE_KEY_HEX,
      MCP_STATE_PREFIX: "lab-mcp:key-page:",
    };
    replicaA = await startHttpBin("labdata-mcp", { ...env, MCP_PORT: String(port) });
    replicaB = await startHttpBin("labdata-mcp", env);
  });

  afterAll(async () => {
    await replicaA?.stop();
    await replicaB?.stop();
    await redis?.stop();
    await idp?.close();
  });

  /** A person's signed-in client of `replica`, whose user types `key` on the page they are sent to. */
  async function agent(email: string, replica: HttpServerProcess, key: string) {
    idp.admin.autoApprove(email);
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT });
    await signInHeadless(provider, publicUrl);
    const client = new ModernClient(
      { name: "key-page-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    const pages: string[] = [];
    const answers: number[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const { url } = request.params as { url: string };
      if (!pages.includes(url)) {
        pages.push(url);
        const { form, post } = await openAsPerson(url);
        expect(form).toContain('type="password"');
        expect(form).toContain(`This page is for ${email} alone.`);
        answers.push((await post(key)).status);
      }
      return { action: "accept" };
    });
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(replica.url), { authProvider: provider }),
    );
    return { client, pages, answers };
  }

  /**
   * The page in the browser of the person auto-approved at the identity provider: it signs in there
   * (following the redirects, cookies kept), shows the form, and posts it as the page's own form does.
   */
  async function openAsPerson(url: string) {
    const jar = new CookieJar();
    const shown = await followRedirects(jar, url);
    const post = (secret: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          ...jar.header(),
          origin: new URL(publicUrl).origin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ secret }),
      });
    return { form: shown.text, status: shown.status, post };
  }

  const whoAmI = async (client: ModernClient) =>
    textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} })).text;

  it("asks once, on the public URL, wherever the call and the form land; then every replica knows the key", async () => {
    const { user: mira, colleague: tom } = emulator.demo;
    const miraOnB = await agent(mira.email, replicaB, mira.apiKey);
    try {
      expect(await whoAmI(miraOnB.client)).toContain(`- **User**: ${mira.name} (${mira.id})`);
      expect(miraOnB.pages).toHaveLength(1);
      expect(miraOnB.pages[0]?.startsWith(`${new URL(publicUrl).origin}/secret/`)).toBe(true);
      expect(miraOnB.answers).toEqual([200]);

      const miraOnA = await agent(mira.email, replicaA, "never-typed");
      expect(await whoAmI(miraOnA.client)).toContain(`- **User**: ${mira.name} (${mira.id})`);
      expect(miraOnA.pages).toEqual([]);
      await miraOnA.client.close();

      // A second answer to the same page, or one from another site's page, plants nothing.
      const page = miraOnB.pages[0] as string;
      const again = await fetch(page, {
        method: "POST",
        headers: { origin: new URL(publicUrl).origin },
        body: new URLSearchParams({ secret: "planted" }),
      });
      expect(again.status).toBe(410);

      const tomOnA = await agent(tom.email, replicaA, tom.apiKey);
      expect(await whoAmI(tomOnA.client)).toContain(`- **User**: ${tom.name} (${tom.id})`);
      expect(tomOnA.pages).toHaveLength(1);
      expect(tomOnA.pages[0]).not.toBe(page);
      await tomOnA.client.close();
      for (const replica of [replicaA, replicaB]) {
        expect(replica.stderr()).not.toContain(mira.apiKey);
        expect(replica.stderr()).not.toContain(tom.apiKey);
      }
    } finally {
      await miraOnB.client.close();
    }
  });

  it("a retry that lands on the other replica (round-robin) waits for the same page, not a new one", async () => {
    const lin = emulator.demo.reader;
    idp.admin.autoApprove(lin.email);
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT });
    await signInHeadless(provider, publicUrl);
    const client = new ModernClient(
      { name: "key-page-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    const pages: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const { url } = request.params as { url: string };
      pages.push(url);
      await (await openAsPerson(url)).post(lin.apiKey);
      return { action: "accept" };
    });
    // Every request goes to the next replica, as a round-robin balancer without stickiness sends them.
    const replicas = [replicaA.url, replicaB.url];
    const served: string[] = [];
    let turn = 0;
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(replicaA.url), {
        authProvider: provider,
        fetch: (_input, init) => {
          const target = replicas[turn++ % replicas.length] as string;
          served.push(target);
          return fetch(target, init);
        },
      }),
    );
    try {
      served.length = 0;
      const answer = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      expect(answer.text).toContain(`- **User**: ${lin.name} (${lin.id})`);
      expect(pages).toHaveLength(1);
      expect(new Set(served).size).toBe(2);
    } finally {
      await client.close();
    }
  });

  it("refuses a form posted from another site's page", async () => {
    // A person with no key stored yet (and none on the platform: the page is refused before that matters).
    idp.admin.autoApprove("dana.whitfield@acme.example");
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT });
    await signInHeadless(provider, publicUrl);
    const client = new ModernClient(
      { name: "key-page-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    let refused = 0;
    client.setRequestHandler("elicitation/create", async (request) => {
      const { url } = request.params as { url: string };
      const posted = await fetch(url, {
        method: "POST",
        headers: { origin: "https://evil.example" },
        body: new URLSearchParams({ secret: "planted-by-another-site" }),
      });
      refused = posted.status;
      return { action: "decline" };
    });
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(replicaA.url), { authProvider: provider }),
    );
    try {
      const answer = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      expect(refused).toBe(403);
      expect(answer.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  /** A person's signed-in client of replica A whose pages `onPage` handles. */
  async function clientOf(email: string, onPage: (url: string) => Promise<"accept" | "decline">) {
    idp.admin.autoApprove(email);
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT });
    await signInHeadless(provider, publicUrl);
    const client = new ModernClient(
      { name: "key-page-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: await onPage((request.params as { url: string }).url),
    }));
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(replicaA.url), { authProvider: provider }),
    );
    return client;
  }

  it("a page forwarded to someone else takes nothing from them and says whose it is; its own person's browser answers it", async () => {
    const { user: mira, colleague: tom } = emulator.demo;
    const refusals: Array<{ status: number; text: string; posted: number }> = [];
    const client = await clientOf(tom.email, async (url) => {
      // Tom forwards the page to Mira: her browser signs in as her, and the page refuses her key.
      idp.admin.autoApprove(mira.email);
      const hers = await openAsPerson(url);
      refusals.push({ status: hers.status, text: hers.form, posted: (await hers.post(mira.apiKey)).status });
      // Tom then opens it himself.
      idp.admin.autoApprove(tom.email);
      await (await openAsPerson(url)).post(tom.apiKey);
      return "accept";
    });
    try {
      await client.callTool({ name: "labdata_sign_out", arguments: {} });
      const answer = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      expect(answer.text).toContain(`- **User**: ${tom.name} (${tom.id})`);
      expect(refusals).toHaveLength(1);
      const [refusal] = refusals;
      expect(refusal?.status).toBe(403);
      expect(refusal?.text).toContain("This page is not yours");
      expect(refusal?.text).toContain(`the assistant of ${tom.email}`);
      expect(refusal?.text).toContain(`(${mira.email})`);
      expect(refusal?.text).not.toContain('type="password"');
      expect(refusal?.posted).toBe(403);
    } finally {
      await client.close();
    }
  });

  it("refuses a key whose platform user is not the signed-in person (their email claim)", async () => {
    const mira = emulator.demo.user;
    const client = await clientOf("dana.whitfield@acme.example", async (url) => {
      await (await openAsPerson(url)).post(mira.apiKey);
      return "accept";
    });
    try {
      const answer = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      expect(answer.isError).toBe(true);
      expect(answer.text).toBe(
        "Error: The API key entered on the page belongs to another user of the lab data platform than " +
          "dana.whitfield@acme.example (your sign-in), so it was not kept. Call the tool again and enter your own API key",
      );
      expect(answer.text).not.toContain(mira.name);
    } finally {
      await client.close();
    }
  });

  it("stores nothing for browsers that start a sign-in and never come back; one that does is signed in on the other replica", async () => {
    const raw = new Redis(redis.url);
    try {
      const before = (await raw.keys("lab-mcp:key-page:*")).length;
      const origin = new URL(publicUrl).origin;
      const starts = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`${origin}/auth/browser/start?to=/`, { redirect: "manual" }).then(async (response) => {
            await response.body?.cancel();
            return response;
          }),
        ),
      );
      expect(starts.every((response) => response.status === 303)).toBe(true);
      expect((await raw.keys("lab-mcp:key-page:*")).length).toBe(before);

      // The sign-in lives in the browser's own sealed cookie: it comes back through replica B.
      idp.admin.autoApprove(emulator.demo.user.email);
      const jar = new CookieJar();
      const started = await fetch(`${origin}/auth/browser/start?to=/`, { redirect: "manual" });
      jar.take(started.headers);
      await started.body?.cancel();
      const atProvider = await fetch(started.headers.get("location") ?? "", { redirect: "manual" });
      await atProvider.body?.cancel();
      const callback = new URL(atProvider.headers.get("location") ?? "");
      const back = await fetch(`${replicaB.url.replace("/mcp", "")}${callback.pathname}${callback.search}`, {
        headers: jar.header(),
        redirect: "manual",
      });
      await back.body?.cancel();
      expect(back.status).toBe(303);
      expect(back.headers.getSetCookie().some((cookie) => cookie.startsWith("__Host-lab_mcp_person="))).toBe(
        true,
      );
      // The same answer again (a replay) signs no one in: the browser's sign-in cookie is spent.
      jar.take(back.headers);
      const replay = await fetch(`${origin}${callback.pathname}${callback.search}`, {
        headers: jar.header(),
        redirect: "manual",
      });
      expect(replay.status).toBe(400);
      await replay.body?.cancel();
    } finally {
      raw.disconnect();
      idp.admin.autoApprove(null);
    }
  });

  it("without the server's own client (MCP_AUTH_CLIENT_ID) opens no page, and says what the operator must set", async () => {
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const unbound = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      MCP_AUTH_ISSUER: idp.issuer,
      MCP_AUTH_AUDIENCE: audience,
      MCP_PORT: String(port),
    });
    idp.admin.autoApprove("dana.whitfield@acme.example");
    const provider = new HeadlessOAuthProvider({ redirectUrl: REDIRECT });
    await signInHeadless(provider, audience);
    const client = new ModernClient(
      { name: "key-page-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    const pages: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      pages.push((request.params as { url: string }).url);
      return { action: "decline" };
    });
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(audience), { authProvider: provider }),
    );
    try {
      const answer = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      expect(answer.isError).toBe(true);
      expect(answer.text).toBe(
        "Error: This team server cannot check who opens its pages, so it asks no one to type a key: its operator " +
          "must set MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET (the server's own client at the authorization " +
          "server; see docs/deployment.md)",
      );
      expect(pages).toEqual([]);
    } finally {
      await client.close();
      await unbound.stop();
    }
  });
});

if (!REDIS_SERVER) describe("a team server's key page", () => it.skip(NO_REDIS, () => {}));
