// Both protocol eras on every transport: a 2026-07-28 client (SDK v2, pinned: no initialize, no
// session) and a 2025-11-25 client (SDK v1: initialize and an MCP session) against the same built
// bins. Stateless HTTP is proven by a round-robin balancer over two processes: every modern request
// may land on either, and each is answered.
import { mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectHttp,
  connectModernHttp,
  connectModernInMemory,
  connectModernStdio,
  expectSearchWorks,
  type HttpServerProcess,
  MODERN_PROTOCOL,
  rawModernList,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { exampleEnv, useExampleEmulator, useLabdataEmulator } from "../support/emulator.js";

const SEARCH = { name: "example_search_users", arguments: { query: "chen" } };

describe("example_mcp in both eras", () => {
  const emulator = useExampleEmulator();
  const servers: HttpServerProcess[] = [];
  let balancer: Server;
  let balancedUrl = "";
  const landed = [0, 0];

  beforeAll(async () => {
    servers.push(await startHttpBin("example-mcp", exampleEnv(emulator)));
    servers.push(await startHttpBin("example-mcp", exampleEnv(emulator)));
    // A load balancer with no affinity: request n goes to process n mod 2.
    let next = 0;
    balancer = createServer((req, res) => {
      const index = next++ % 2;
      landed[index] = (landed[index] ?? 0) + 1;
      const target = new URL((servers[index] as HttpServerProcess).url);
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => balancer.listen(0, "127.0.0.1", resolve));
    balancedUrl = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    balancer?.close();
    await Promise.all(servers.map((server) => server.stop()));
  });

  it("answers a 2026-07-28 client over HTTP with no session: no Mcp-Session-Id, ever", async () => {
    const seen: Headers[] = [];
    const connection = await connectModernHttp((servers[0] as HttpServerProcess).url, { seen });
    expect(connection.client.getProtocolEra()).toBe("modern");
    expect(connection.client.getNegotiatedProtocolVersion()).toBe(MODERN_PROTOCOL);
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["example_search_users"]);
    const result = textOf(await connection.client.callTool(SEARCH));
    expect(result.text).toContain("# User Search Results: 'chen'");
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((headers) => !headers.has("mcp-session-id"))).toBe(true);
    await connection.close();
  });

  it("lets any process answer any 2026-07-28 request (a balancer without affinity)", async () => {
    const connection = await connectModernHttp(balancedUrl);
    for (let i = 0; i < 6; i++) {
      const result = textOf(await connection.client.callTool(SEARCH));
      expect(result.isError).toBe(false);
      expect(result.text).toContain("chen");
    }
    expect(landed[0]).toBeGreaterThanOrEqual(3);
    expect(landed[1]).toBeGreaterThanOrEqual(3);
    await connection.close();
  });

  it("still serves a 2025-11-25 client with initialize and a session on the same endpoint", async () => {
    const connection = await connectHttp((servers[0] as HttpServerProcess).url);
    expect(connection.client.getServerVersion()?.name).toBe("example_mcp");
    await expectSearchWorks(connection.client);
    await connection.close();
  });

  it("answers a 2026-07-28 client over stdio", async () => {
    const connection = await connectModernStdio("example-mcp", exampleEnv(emulator));
    expect(connection.client.getProtocolEra()).toBe("modern");
    const result = textOf(await connection.client.callTool(SEARCH));
    expect(result.text).toContain("# User Search Results: 'chen'");
    await connection.close();
  });
});

describe("the HTTP guards, for 2026-07-28 requests too", () => {
  const TOKEN = "0123456789abcdef0123456789abcdef-eras";
  const emulator = useExampleEmulator();
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpBin("example-mcp", { ...exampleEnv(emulator), MCP_HTTP_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const modernList = (headers: Record<string, string>) => rawModernList(server.url, headers);

  it("needs the bearer token, refuses a foreign Origin, and answers with it", async () => {
    expect((await modernList({})).status).toBe(401);
    expect((await modernList({ authorization: "Bearer wrong" })).status).toBe(401);
    const foreign = await modernList({ authorization: `Bearer ${TOKEN}`, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const answer = await modernList({ authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.has("mcp-session-id")).toBe(false);
    expect(JSON.stringify(await answer.json())).toContain("example_search_users");
    const connection = await connectModernHttp(server.url, { token: TOKEN });
    expect(textOf(await connection.client.callTool(SEARCH)).isError).toBe(false);
    await connection.close();
  });

  it("refuses a body over the cap before it reaches the SDK, and goes on serving", async () => {
    const status = await new Promise<number | undefined>((resolve) => {
      const target = new URL(server.url);
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          agent: false,
          headers: {
            host: target.host,
            "content-type": "application/json",
            authorization: `Bearer ${TOKEN}`,
            "mcp-protocol-version": MODERN_PROTOCOL,
          },
        },
        (answer) => {
          answer.resume();
          resolve(answer.statusCode);
        },
      );
      // The server may close the connection while the rest of the body is still being sent.
      req.on("error", () => resolve(undefined));
      req.end(
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(5 << 20) } }),
      );
    });
    if (status !== undefined) expect(status).toBe(413);
    const connection = await connectModernHttp(server.url, { token: TOKEN });
    expect(textOf(await connection.client.callTool(SEARCH)).isError).toBe(false);
    await connection.close();
  });
});

describe("the credential ask in the 2026-07-28 way", () => {
  const emulator = useLabdataEmulator();

  const noKeyEnv = () => ({
    LABDATA_BASE_URL: emulator.demo.baseUrl,
    LABDATA_CREDENTIALS_FILE: join(mkdtempSync(join(tmpdir(), "labdata-creds-")), "labdata.json"),
  });

  it("answers input_required with the one-time page; the retry completes the call with the key typed there", async () => {
    const { labdataService } = await import("../../packages/lab-mcp/src/services/labdata/index.js");
    const connection = await connectModernInMemory(labdataService, noKeyEnv(), { elicitation: { url: {} } });
    const asked: Array<{ mode?: string; url?: string; elicitationId?: string }> = [];
    connection.client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { mode?: string; url: string; elicitationId?: string };
      asked.push(params);
      // The user types the key on the page; the client says they went there.
      const typed = await fetch(params.url, {
        method: "POST",
        body: new URLSearchParams({ secret: emulator.demo.user.apiKey }),
      });
      expect(typed.status).toBe(200);
      return { action: "accept" };
    });
    const result = textOf(
      await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }),
    );
    expect(result.isError).toBe(false);
    expect(result.text).toContain(emulator.demo.user.name);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.mode).toBe("url");
    expect(asked[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/secret\//);
    // The secret went to the page, not through the client: nothing of it in what the client saw.
    expect(JSON.stringify(asked)).not.toContain(emulator.demo.user.apiKey);
    await connection.close();
  });

  it("says which settings to set when the 2026-07-28 client cannot open URLs", async () => {
    const { labdataService } = await import("../../packages/lab-mcp/src/services/labdata/index.js");
    const connection = await connectModernInMemory(labdataService, noKeyEnv());
    const result = textOf(
      await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }),
    );
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error: No credentials for the lab data platform\. .*LABDATA_API_KEY/);
    await connection.close();
  });

  it("refuses a tampered requestState before the tool runs", async () => {
    const { labdataService } = await import("../../packages/lab-mcp/src/services/labdata/index.js");
    const connection = await connectModernInMemory(labdataService, noKeyEnv(), { elicitation: { url: {} } });
    const call = connection.client.request(
      {
        method: "tools/call",
        params: {
          name: "labdata_get_current_user",
          arguments: {},
          requestState: "forged.state",
          inputResponses: { open_page: { action: "accept" } },
        },
      },
      { inputRequired: { autoFulfill: false } } as never,
    );
    await expect(call).rejects.toThrow(/Invalid or expired requestState/);
    await connection.close();
  });
});
