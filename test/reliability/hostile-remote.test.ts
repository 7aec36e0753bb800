// A hostile remote: bodies that never end, trickle, are huge or inflate to gigabytes, error bodies
// of the same kinds, redirects that would carry secrets elsewhere, and absurd rate headers. Each case
// ends in an exact text of the conventions within the (low) request timeout, through a real MCP
// client and a real tool; the server process goes on serving and its memory stays far below the sizes
// it was sent; and the remote sees its connection closed.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { binPath, type Connected, connectInMemory, connectStdio, textOf } from "../support/clients.js";
import { freePort } from "../support/ports.js";
import {
  type Answer,
  EXAMPLE_SEARCH_BODY,
  endlessBody,
  gzipBomb,
  type HostileRemote,
  hugeBody,
  json,
  pdfBody,
  redirect,
  resetConnection,
  slowSearch,
  startHostileRemote,
  tricklingBody,
} from "./hostile-remote.js";
import { canary } from "./targets.js";

const MIB = 1024 * 1024;
/** MCP_MAX_RESPONSE_BYTES of the servers under test. */
const LIMIT = MIB;
/** The peak resident memory a server may reach here; every hostile body is far larger. */
const MEMORY_BOUND = 200 * MIB;
/** A client-side deadline far above the 2 s request timeout: a call that hangs fails the test. */
const CALL_DEADLINE_MS = 15_000;

const TEXTS = {
  tooLarge: "Error: Unexpected error occurred: ResponseTooLargeError",
  timeout: "Error: Request timed out. Please try again.",
  rateLimited: "Error: Rate limit exceeded. Please wait before making more requests.",
  notFound: "Error: Resource not found. Please check the ID is correct.",
  status: (status: number) => `Error: API request failed with status ${status}`,
};

/** The highest resident memory the process has had (VmHWM), in bytes. */
function peakMemory(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  return textOf(await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_DEADLINE_MS }));
}

const exampleEnv = (remote: HostileRemote, extra: Record<string, string> = {}) => ({
  EXAMPLE_BASE_URL: `${remote.url}/api`,
  EXAMPLE_API_KEY: "hostile-remote-test-key",
  MCP_REQUEST_TIMEOUT: "2",
  MCP_MAX_RESPONSE_BYTES: String(LIMIT),
  ...extra,
});

const search = (client: Client) => callTool(client, "example_search_users", { query: "chen" });

async function expectSearchWorks(client: Client): Promise<void> {
  const { text, isError } = await search(client);
  expect(isError, text).toBe(false);
  expect(text).toContain("# User Search Results: 'chen'");
}

let remote: HostileRemote;
let elsewhere: HostileRemote;
beforeAll(async () => {
  remote = await startHostileRemote();
  elsewhere = await startHostileRemote();
});
afterAll(async () => {
  await remote?.close();
  await elsewhere?.close();
});
afterEach(() => {
  remote.reset();
  elsewhere.reset();
});

describe("bodies (example_mcp over stdio, 1 MiB limit, 2 s timeout)", () => {
  let server: Connected & { pid: number };
  beforeAll(async () => {
    server = await connectStdio("example-mcp", exampleEnv(remote));
  });
  afterAll(async () => {
    await server?.close();
  });

  const CASES: Array<[string, () => Answer, string]> = [
    ["an endless body", () => endlessBody(), TEXTS.tooLarge],
    ["a body trickling at 1 byte/s", () => tricklingBody(), TEXTS.timeout],
    ["a 1 GiB body (Content-Length)", () => hugeBody(1024 * MIB), TEXTS.tooLarge],
    ["a gzip bomb (256 KB inflating to 512 MiB)", () => gzipBomb(512 * MIB), TEXTS.tooLarge],
    ["an endless error body", () => endlessBody(500), TEXTS.status(500)],
    ["a trickling error body", () => streamedErrorTrickle(), TEXTS.status(502)],
  ];

  it.each(CASES)(
    "%s: the exact text, the connection closed, memory bounded, then serving",
    async (_name, answer, expected) => {
      const scripted: Answer & { ready?: Promise<unknown> } = answer();
      await scripted.ready;
      remote.script("/api/", scripted);
      expect(await search(server.client)).toEqual({ text: expected, isError: true });
      const [request] = remote.received;
      // The remote never ends these answers by itself: only our server can have closed the connection.
      await request?.closed;
      await expectSearchWorks(server.client);
      expect(peakMemory(server.pid)).toBeLessThan(MEMORY_BOUND);
    },
  );

  it("other calls are unaffected by one cut off at the limit", async () => {
    remote.script("/api/", endlessBody());
    const results = await Promise.all([search(server.client), search(server.client), search(server.client)]);
    expect(results.filter((result) => result.text === TEXTS.tooLarge)).toHaveLength(1);
    expect(results.filter((result) => !result.isError)).toHaveLength(2);
  });

  it("a body within the limit is read whole", async () => {
    const users = Array.from({ length: 2000 }, (_, i) => ({
      id: `usr_${i}`,
      name: `Chen ${"x".repeat(200)} ${i}`,
      email: `chen${i}@example.test`,
    }));
    const body = JSON.stringify({ users, total: 2000 });
    expect(body.length).toBeGreaterThan(LIMIT / 3);
    expect(body.length).toBeLessThan(LIMIT);
    remote.script("/api/", json(200, body));
    const { text, isError } = await callTool(server.client, "example_search_users", {
      query: "chen",
      limit: 100,
      response_format: "json",
    });
    expect(isError, text.slice(0, 200)).toBe(false);
    expect(JSON.parse(text).total).toBe(2000);
  });
});

describe("compressed answers (example_mcp in memory)", () => {
  it("gzip, deflate, br and two codings in turn are read decompressed; the request offers them", async () => {
    const server = await connectInMemory(exampleService, exampleEnv(remote));
    try {
      const body = Buffer.from(EXAMPLE_SEARCH_BODY);
      const codings: Array<[string, Buffer]> = [
        ["gzip", gzipSync(body)],
        ["deflate", deflateSync(body)],
        ["br", brotliCompressSync(body)],
        ["deflate, gzip", gzipSync(deflateSync(body))],
      ];
      for (const [coding, bytes] of codings) {
        remote.reset();
        remote.script("/api/", async (_req, res) => {
          res.writeHead(200, { "content-type": "application/json", "content-encoding": coding });
          res.end(bytes);
        });
        const { text, isError } = await search(server.client);
        expect(isError, `${coding}: ${text}`).toBe(false);
        expect(text, coding).toContain("Mei Chen");
        expect(remote.received[0]?.headers["accept-encoding"]).toBe("br, gzip, deflate");
      }
    } finally {
      await server.close();
    }
  });
});

/** A 502 whose body trickles at 1 byte/s: the status is known, its body is not waited for past the timeout. */
function streamedErrorTrickle(): Answer {
  return async (_req, res) => {
    res.writeHead(502, { "content-type": "application/json" });
    const timer = setInterval(() => res.write(" "), 1000);
    res.once("close", () => clearInterval(timer));
  };
}

describe("a connection reset before any answer", () => {
  it("an idempotent request is sent once more on a new connection, and only once", async () => {
    const server = await connectStdio("example-mcp", exampleEnv(remote));
    try {
      remote.reset();
      remote.script("/api/", resetConnection());
      await expectSearchWorks(server.client);
      expect(remote.received.filter((r) => r.path.startsWith("/api/"))).toHaveLength(2);

      remote.reset();
      remote.script("/api/", resetConnection(), resetConnection(), resetConnection());
      expect(await search(server.client)).toEqual({
        text: "Error: Unexpected error occurred: ConnectionError",
        isError: true,
      });
      expect(remote.received.filter((r) => r.path.startsWith("/api/"))).toHaveLength(2);
    } finally {
      remote.reset();
      await server.close();
    }
  });

  it("is sent again on a new connection, not on another kept one the remote may have closed too", async () => {
    const server = await connectStdio("example-mcp", exampleEnv(remote));
    try {
      remote.reset();
      // Three calls at once, answered slowly: three connections, then kept alive by the server's pool.
      remote.script("/api/", slowSearch(300), slowSearch(300), slowSearch(300));
      await Promise.all([1, 2, 3].map(() => expectSearchWorks(server.client)));
      const kept = new Set(remote.received.map((r) => r.port));
      expect(kept.size).toBe(3);

      remote.reset();
      remote.script("/api/", resetConnection());
      await expectSearchWorks(server.client);
      const [reset, resent] = remote.received.filter((r) => r.path.startsWith("/api/"));
      expect(kept.has(reset?.port ?? 0)).toBe(true);
      expect(kept.has(resent?.port ?? 0)).toBe(false);
    } finally {
      remote.reset();
      await server.close();
    }
  });
});

describe("cancellation", () => {
  it("a cancelled call closes the remote connection at once (the timeout is 600 s)", async () => {
    const server = await connectStdio("example-mcp", exampleEnv(remote, { MCP_REQUEST_TIMEOUT: "600" }));
    try {
      remote.script("/api/", tricklingBody());
      const seen = remote.nextRequest();
      const controller = new AbortController();
      const call = server.client.callTool(
        { name: "example_search_users", arguments: { query: "chen" } },
        undefined,
        {
          signal: controller.signal,
        },
      );
      const request = await seen;
      controller.abort();
      await expect(call).rejects.toThrow();
      // Only the cancellation can end this exchange before its 600 s: the test's own timeout bounds this wait.
      await request.closed;
      await expectSearchWorks(server.client);
    } finally {
      await server.close();
    }
  });
});

describe("absurd rate headers (a fresh server for each)", () => {
  let server: (Connected & { pid: number }) | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async () => {
    server = await connectStdio("example-mcp", exampleEnv(remote));
    return server.client;
  };
  const ok = (headers: Record<string, string>) => json(200, EXAMPLE_SEARCH_BODY, headers);

  it("Retry-After: 99999999 answers the rate-limit text, and the credential probes again after a few windows", async () => {
    const client = await start();
    remote.script("/api/", json(429, "{}", { "retry-after": "99999999" }), ok({}));
    const started = Date.now();
    expect(await search(client)).toEqual({ text: TEXTS.rateLimited, isError: true });
    // Not locked out for the 15-minute clamp: the service's 10 s window, twice, then one request probes.
    const probed = textOf(
      await client.callTool({ name: "example_search_users", arguments: { query: "chen" } }, undefined, {
        timeout: 40_000,
      }),
    );
    expect(probed.isError, probed.text).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19_000);
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(remote.received).toHaveLength(2);
    // The process is alive and responsive.
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["example_search_users"]);
  }, 60_000);

  it("an epoch-style x-rate-limit-reset (Unix seconds, 2 s ahead) is a 2 s pause, not decades", async () => {
    const client = await start();
    const resetAt = String(Math.ceil(Date.now() / 1000) + 2);
    remote.script(
      "/api/",
      ok({ "x-rate-limit-limit": "100", "x-rate-limit-remaining": "0", "x-rate-limit-reset": resetAt }),
    );
    await expectSearchWorks(client);
    await expectSearchWorks(client);
    expect(remote.received).toHaveLength(2);
  });

  it("limit 1 with reset 1000000 s: a window learnt that long shrinks back when the remote says 1 s", async () => {
    const client = await start();
    remote.script(
      "/api/",
      ok({ "x-rate-limit-limit": "1", "x-rate-limit-remaining": "1", "x-rate-limit-reset": "1000000" }),
      ok({ "x-rate-limit-limit": "1", "x-rate-limit-remaining": "1", "x-rate-limit-reset": "1" }),
    );
    await expectSearchWorks(client);
    await expectSearchWorks(client);
    await expectSearchWorks(client); // one request a second now, not one in 11 days
    expect(remote.received).toHaveLength(3);
  });

  it("limit 1, remaining 0, reset 1000000 s: the rate-limit text at once rather than an endless wait", async () => {
    const client = await start();
    remote.script(
      "/api/",
      ok({ "x-rate-limit-limit": "1", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "1000000" }),
    );
    await expectSearchWorks(client);
    expect(await search(client)).toEqual({ text: TEXTS.rateLimited, isError: true });
    expect(remote.received).toHaveLength(1);
  });
});

describe("redirects", () => {
  const tempFile = async (name: string) => join(await mkdtemp(join(tmpdir(), "lab-mcp-hostile-")), name);

  describe("lab data platform token endpoint (client credentials)", () => {
    let conn: Connected;
    let secret: string;
    beforeAll(async () => {
      secret = canary("ClientSecret");
      conn = await connectInMemory(labdataService, {
        LABDATA_BASE_URL: remote.url,
        LABDATA_CLIENT_ID: "hostile-app",
        LABDATA_CLIENT_SECRET: secret,
        LABDATA_CREDENTIALS_FILE: await tempFile("labdata.json"),
        MCP_REQUEST_TIMEOUT: "2",
      });
    });
    afterAll(async () => {
      await conn?.close();
    });

    it.each([301, 302, 303, 307, 308])(
      "a %i is not followed: nothing reaches the other origin",
      async (status) => {
        remote.script("/api/v2/token", redirect(status, `${elsewhere.url}/api/v2/token`));
        expect(await callTool(conn.client, "labdata_get_current_user", {})).toEqual({
          text: TEXTS.status(status),
          isError: true,
        });
        expect(remote.received.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v2/token"]);
        expect(elsewhere.received).toEqual([]);
      },
    );

    it("an error_description echoing the secret is not shown", async () => {
      remote.script(
        "/api/v2/token",
        json(400, JSON.stringify({ error: "invalid_client", error_description: `Unknown secret ${secret}` })),
      );
      const { text, isError } = await callTool(conn.client, "labdata_get_current_user", {});
      expect({ text, isError }).toEqual({ text: TEXTS.status(400), isError: true });
    });
  });

  describe("API requests with a body (lab data platform, API key)", () => {
    let conn: Connected;
    let apiKey: string;
    beforeAll(async () => {
      apiKey = canary("ApiKey");
      conn = await connectInMemory(labdataService, {
        LABDATA_BASE_URL: remote.url,
        LABDATA_API_KEY: apiKey,
        LABDATA_CREDENTIALS_FILE: await tempFile("labdata.json"),
        MCP_REQUEST_TIMEOUT: "2",
        // The requests with a body are writes: asked for by name.
        MCP_TOOLSETS: "default,writes",
      });
    });
    afterAll(async () => {
      await conn?.close();
    });
    const create = () =>
      callTool(conn.client, "labdata_create_dna_sequence", {
        name: "hostile-redirect-check",
        bases: "ATGCATGCATGC",
        folder_id: "lib_hostile01",
      });

    it.each([307, 308])(
      "a POST redirected with %i to another origin is not replayed there",
      async (status) => {
        remote.script("/api/v2/dna-sequences", redirect(status, `${elsewhere.url}/api/v2/dna-sequences`));
        expect(await create()).toEqual({ text: TEXTS.status(status), isError: true });
        expect(elsewhere.received).toEqual([]);
        expect(remote.received[0]?.body).toContain("hostile-redirect-check");
      },
    );

    it.each([301, 302, 303])(
      "a POST redirected with %i becomes a GET without body or credential",
      async (status) => {
        remote.script("/api/v2/dna-sequences", redirect(status, `${elsewhere.url}/somewhere`));
        elsewhere.script("/somewhere", json(404, '{"error":{"message":"Not found"}}'));
        expect(await create()).toEqual({ text: TEXTS.notFound, isError: true });
        expect(elsewhere.received).toHaveLength(1);
        const [moved] = elsewhere.received;
        expect(moved?.method).toBe("GET");
        expect(moved?.body).toBe("");
        expect(moved?.headers.authorization).toBeUndefined();
        expect(moved?.headers["content-type"]).toBeUndefined();
        expect(JSON.stringify(moved?.headers)).not.toContain(apiKey);
      },
    );

    it("a POST redirected with 307 within its origin is followed with its body", async () => {
      remote.script("/api/v2/dna-sequences", redirect(307, `${remote.url}/moved/dna-sequences`));
      remote.script("/moved/", json(404, '{"error":{"message":"Not found"}}'));
      expect(await create()).toEqual({ text: TEXTS.notFound, isError: true });
      expect(remote.received.map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /api/v2/dna-sequences",
        "POST /moved/dna-sequences",
      ]);
      expect(remote.received[1]?.body).toBe(remote.received[0]?.body);
      expect(remote.received[1]?.headers.authorization).toBe(remote.received[0]?.headers.authorization);
    });
  });

  describe("protocol repository token endpoint (refresh)", () => {
    let clientSecret: string;
    let refreshToken: string;
    const connect = async () => {
      const tokenFile = await tempFile("tokens.json");
      writeFileSync(
        tokenFile,
        JSON.stringify({
          access_token: canary("AccessToken"),
          refresh_token: refreshToken,
          expires_at: Math.floor(Date.now() / 1000) - 3600,
          base_url: remote.url,
          client_id: "hostile-app",
        }),
        { mode: 0o600 },
      );
      const conn = await connectInMemory(protocolsService, {
        PROTOCOLS_BASE_URL: remote.url,
        PROTOCOLS_CLIENT_ID: "hostile-app",
        PROTOCOLS_CLIENT_SECRET: clientSecret,
        PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:47999/callback",
        PROTOCOLS_TOKEN_FILE: tokenFile,
        MCP_REQUEST_TIMEOUT: "2",
      });
      const logs: string[] = [];
      conn.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push(JSON.stringify(notification.params));
      });
      await conn.client.setLoggingLevel("debug");
      return { conn, logs };
    };
    beforeAll(() => {
      clientSecret = canary("ProtocolsSecret");
      refreshToken = canary("RefreshToken");
    });

    it.each([302, 307, 308])(
      "a %i is not followed: the refresh token and secret stay home",
      async (status) => {
        const { conn } = await connect();
        try {
          remote.script("/api/v3/oauth/token", redirect(status, `${elsewhere.url}/api/v3/oauth/token`));
          expect(await callTool(conn.client, "protocols_get_profile", {})).toEqual({
            text: TEXTS.status(status),
            isError: true,
          });
          expect(remote.received.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v3/oauth/token"]);
          expect(elsewhere.received).toEqual([]);
        } finally {
          await conn.close();
        }
      },
    );

    it("an error_description echoing the client secret is not shown, nor logged", async () => {
      const { conn, logs } = await connect();
      try {
        remote.script(
          "/api/v3/oauth/token",
          json(
            401,
            JSON.stringify({
              error: "invalid_client",
              error_description: `Bad secret ${clientSecret} for ${refreshToken}`,
            }),
          ),
        );
        const result = await callTool(conn.client, "protocols_get_profile", {});
        expect(result).toEqual({
          text:
            "Error: The repository refused the OAuth application (invalid_client: the application's credentials " +
            "were not accepted). Check PROTOCOLS_CLIENT_ID and PROTOCOLS_CLIENT_SECRET.",
          isError: true,
        });
        for (const line of logs) {
          expect(line).not.toContain(clientSecret);
          expect(line).not.toContain(refreshToken);
        }
      } finally {
        await conn.close();
      }
    });

    it("an unknown error code is not repeated either (it may be the secret itself)", async () => {
      const { conn } = await connect();
      try {
        remote.script("/api/v3/oauth/token", json(400, JSON.stringify({ error: clientSecret })));
        const { text } = await callTool(conn.client, "protocols_get_profile", {});
        expect(text).toBe(
          "Error: The repository refused the token request (an error code this server does not know).",
        );
      } finally {
        await conn.close();
      }
    });
  });
});

describe("protocols-mcp login (the code exchange)", () => {
  it("a refusal echoing the client secret and the code is not printed, nor shown on the callback page", async () => {
    const clientSecret = canary("LoginSecret");
    const code = canary("Code");
    const dir = await mkdtemp(join(tmpdir(), "lab-mcp-hostile-"));
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    remote.script(
      "/api/v3/oauth/token",
      json(400, JSON.stringify({ error: "invalid_grant", error_description: `${code} / ${clientSecret}` })),
    );
    const child = spawn(
      process.execPath,
      [binPath("protocols-mcp"), "login", "--no-browser", "--timeout", "20"],
      {
        env: {
          PATH: process.env.PATH ?? "",
          NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
          HOME: dir,
          XDG_CONFIG_HOME: join(dir, "config"),
          PROTOCOLS_BASE_URL: remote.url,
          PROTOCOLS_CLIENT_ID: "hostile-app",
          PROTOCOLS_CLIENT_SECRET: clientSecret,
          PROTOCOLS_REDIRECT_URI: redirectUri,
          PROTOCOLS_TOKEN_FILE: join(dir, "tokens.json"),
          MCP_REQUEST_TIMEOUT: "2",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exit = new Promise<number | null>((resolve) => child.once("exit", (status) => resolve(status)));
    try {
      const authorize = await new Promise<URL>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /^\s+(https:\/\/\S+\/api\/v3\/oauth\/authorize\?\S+)$/m.exec(stdout);
          if (match && stdout.includes("Ctrl-C to stop)...\n")) resolve(new URL(match[1] as string));
        });
        child.once("exit", () => reject(new Error(`exited without a URL: ${stdout} ${stderr}`)));
      });
      // The "browser" comes back from the (hostile) repository with a code.
      const callback = new URL(redirectUri);
      callback.searchParams.set("code", code);
      callback.searchParams.set("state", authorize.searchParams.get("state") ?? "");
      const page = await (await fetch(callback)).text();
      expect(await exit).toBe(1);
      const printed = `${stdout}\n${stderr}\n${page}`;
      expect(printed).not.toContain(clientSecret);
      expect(printed).not.toContain(code);
      expect(stderr).toContain(
        "The repository refused the grant (invalid_grant: the sign-in code or refresh token is invalid, expired, " +
          "already used or issued to another application).",
      );
    } finally {
      clearTimeout(killer);
      child.kill();
    }
  });
});

describe("PDFs (protocols_mcp over stdio, anonymous; API limit 64 KiB, PDF limit 1 MiB)", () => {
  let server: Connected & { pid: number };
  beforeAll(async () => {
    server = await connectStdio("protocols-mcp", {
      PROTOCOLS_BASE_URL: remote.url,
      PROTOCOLS_DOWNLOAD_DIR: join(await mkdtemp(join(tmpdir(), "lab-mcp-hostile-")), "downloads"),
      MCP_REQUEST_TIMEOUT: "2",
      MCP_MAX_RESPONSE_BYTES: "65536",
      PROTOCOLS_MAX_PDF_BYTES: String(MIB),
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  const download = () =>
    callTool(server.client, "protocols_download_pdf", { protocol: "hostile-protocol-x1" });

  it("a PDF larger than the API limit but within the PDF limit is downloaded", async () => {
    remote.script("/view/", pdfBody(512 * 1024));
    const { text, isError } = await download();
    expect(isError, text).toBe(false);
    expect(text).toContain("(524,288 bytes)");
  });

  it("an endless PDF is cut at the PDF limit: the exact text, memory bounded, then serving", async () => {
    remote.script("/view/", endlessBody(200, "application/pdf"));
    expect(await download()).toEqual({ text: TEXTS.tooLarge, isError: true });
    await remote.received[0]?.closed;
    remote.script("/view/", pdfBody(4096));
    expect((await download()).isError).toBe(false);
    expect(peakMemory(server.pid)).toBeLessThan(MEMORY_BOUND);
  });
});
