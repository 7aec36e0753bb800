// The example emulator over real HTTPS: auth, search and paging, faults, the admin API, and that its
// throwaway CA works with Node's own trust store (NODE_EXTRA_CA_CERTS) as the tool servers use it.
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeCaFile } from "../../packages/emulators/src/common/tls.js";
import {
  type ExampleEmulator,
  type ExampleUser,
  startExampleEmulator,
} from "../../packages/emulators/src/example/index.js";
import { plainHttpGet, rawExchange } from "../support/plain-http.js";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface SearchBody {
  users: ExampleUser[];
  total: number;
}

// Global fetch cannot be given a CA in this process, so node:https with the `ca` option instead.
// Rejects when the connection fails or the body ends early, like a real client would notice.
function send(
  url: string,
  ca: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: opts.method ?? "GET", headers: opts.headers, ca, agent: false });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("close", () => {
        if (!res.complete) reject(new Error("response ended before the full body arrived"));
        else
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          });
      });
    });
    req.end(opts.body);
  });
}

let emulator: ExampleEmulator;
let origin: string;
let port: number;

const auth = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
const api = (pathAndQuery: string, key = emulator.apiKey): Promise<Reply> =>
  send(`${emulator.url}${pathAndQuery}`, emulator.caPem, { headers: auth(key) });
const admin = (method: string, path: string, body?: unknown, key = emulator.adminSecret): Promise<Reply> =>
  send(`${origin}/_admin${path}`, emulator.caPem, {
    method,
    headers: { ...auth(key), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const search = async (query: string): Promise<SearchBody> => {
  const reply = await api(`/users/search?${query}`);
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body) as SearchBody;
};

beforeAll(async () => {
  emulator = await startExampleEmulator();
  origin = new URL(emulator.url).origin;
  port = Number(new URL(emulator.url).port);
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(() => {
  emulator.faults.clear();
  emulator.requests.clear();
});

describe("example emulator: authentication", () => {
  it("serves the API under /api on 127.0.0.1 with distinct random credentials", () => {
    expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(emulator.apiKey).toMatch(/^ex_[0-9a-f]{32}$/);
    expect(emulator.adminSecret).not.toBe(emulator.apiKey);
  });

  it("answers 401 invalid_token without an Authorization header", async () => {
    const reply = await send(`${emulator.url}/users/search?q=chen`, emulator.caPem);
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.body)).toMatchObject({ error: "invalid_token" });
  });

  it("answers 401 to a wrong key and never echoes the key back", async () => {
    const wrongKey = "ex_this_is_the_wrong_key_0123456789";
    const reply = await api("/users/search?q=chen", wrongKey);
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.body)).toMatchObject({ error: "invalid_token" });
    expect(reply.body).not.toContain(wrongKey);
    expect(JSON.stringify(reply.headers)).not.toContain(wrongKey);
  });
});

describe("example emulator: search", () => {
  it("matches name, email or team case-insensitively, ordered by name", async () => {
    const body = await search("q=CHEN");
    expect(body.total).toBe(4);
    expect(body.users.map((u) => u.name)).toEqual(["Alan Chen", "Lucas Chen", "Mei Chen", "Wei Chen"]);
    const genomics = await search("q=genomics&limit=100");
    expect(genomics.total).toBeGreaterThan(0);
    expect(genomics.users.every((u) => u.team === "Genomics")).toBe(true);
  });

  it("pages through more than 20 matches with limit and offset", async () => {
    const all = await search("q=a&limit=100");
    expect(all.total).toBeGreaterThan(20);
    expect(all.users).toHaveLength(Math.min(all.total, 100));

    const first = await search("q=a");
    expect(first.users).toHaveLength(20);
    expect(first.total).toBe(all.total);

    const pages: ExampleUser[] = [];
    for (let offset = 0; offset < all.total; offset += 7) {
      const page = await search(`q=a&limit=7&offset=${offset}`);
      expect(page.total).toBe(all.total);
      pages.push(...page.users);
    }
    expect(pages).toEqual(all.users);

    const past = await search(`q=a&offset=${all.total}`);
    expect(past).toEqual({ users: [], total: all.total });
  });

  it("returns users with id, name and email, and no team key at all when there is no team", async () => {
    const reply = await api("/users/search?q=lab.example&limit=100");
    const body = JSON.parse(reply.body) as SearchBody;
    const withoutTeam = body.users.filter((u) => !("team" in u));
    expect(withoutTeam.length).toBeGreaterThan(0);
    expect(body.users.length - withoutTeam.length).toBeGreaterThan(withoutTeam.length);
    expect(reply.body).not.toContain('"team":null');
    for (const user of body.users) {
      expect(user.id).toMatch(/^usr_\d{4}$/);
      expect(user.email).toMatch(/^[a-z]+\.[a-z]+@lab\.example$/);
      expect(Object.keys(user).sort()).toEqual(
        user.team === undefined ? ["email", "id", "name"] : ["email", "id", "name", "team"],
      );
    }
  });

  it("answers 400 to a missing q or a bad limit or offset", async () => {
    for (const query of [
      "",
      "q=",
      "q=%20%20",
      "q=a&limit=0",
      "q=a&limit=101",
      "q=a&limit=abc",
      "q=a&offset=-1",
    ]) {
      const reply = await api(`/users/search?${query}`);
      expect(reply.status, query).toBe(400);
      expect(JSON.parse(reply.body), query).toMatchObject({ error: "invalid_request" });
    }
  });

  it("answers 404 to other paths and 405 to other methods", async () => {
    for (const path of ["/users", "/users/search/extra", "/nope"]) {
      const reply = await api(path);
      expect(reply.status, path).toBe(404);
      expect(JSON.parse(reply.body), path).toHaveProperty("error");
    }
    const post = await send(`${emulator.url}/users/search?q=a`, emulator.caPem, {
      method: "POST",
      headers: auth(emulator.apiKey),
    });
    expect(post.status).toBe(405);
  });
});

describe("example emulator: faults", () => {
  it("delays a request, then serves it normally", async () => {
    emulator.faults.inject({ kind: "delay", ms: 300 }, { path: "/api/users/search" });
    const started = Date.now();
    const reply = await api("/users/search?q=chen");
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(reply.status).toBe(200);
  });

  it("answers an injected status with its headers only the given number of times", async () => {
    emulator.faults.inject(
      { kind: "status", status: 429, headers: { "Retry-After": "2" } },
      { path: "/api/users", times: 2 },
    );
    for (let i = 0; i < 2; i++) {
      const reply = await api("/users/search?q=chen");
      expect(reply.status).toBe(429);
      expect(reply.headers["retry-after"]).toBe("2");
      expect(JSON.parse(reply.body)).toHaveProperty("error");
    }
    expect((await api("/users/search?q=chen")).status).toBe(200);
    expect(emulator.requests.count("/api/users/search")).toBe(3);
  });

  it("drops the connection without a response", async () => {
    emulator.faults.inject({ kind: "drop" }, {});
    await expect(api("/users/search?q=chen")).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect((await api("/users/search?q=chen")).status).toBe(200);
  });

  it("answers 200 with a body that is not JSON", async () => {
    emulator.faults.inject({ kind: "malformed" }, {});
    const reply = await api("/users/search?q=chen");
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toContain("application/json");
    expect(() => JSON.parse(reply.body)).toThrow();
  });

  it("cuts the body short of its content-length", async () => {
    emulator.faults.inject({ kind: "truncated" }, {});
    await expect(api("/users/search?q=chen")).rejects.toThrow(/aborted|ended before/);
    expect((await api("/users/search?q=chen")).status).toBe(200);
  });

  it("applies a fault only to paths under its prefix", async () => {
    emulator.faults.inject({ kind: "status", status: 503 }, { path: "/api/other" });
    expect((await api("/users/search?q=chen")).status).toBe(200);
    expect((await api("/other/thing")).status).toBe(503);
  });

  it("takes faults injected through the admin API", async () => {
    const injected = await admin("POST", "/faults", {
      fault: { kind: "status", status: 500, body: "boom" },
      times: 1,
    });
    expect(injected.status).toBe(201);
    const failed = await api("/users/search?q=chen");
    expect(failed).toMatchObject({ status: 500, body: "boom" });
    expect((await api("/users/search?q=chen")).status).toBe(200);

    expect((await admin("POST", "/faults", { fault: { kind: "explode" } })).status).toBe(400);
    await admin("POST", "/faults", { fault: { kind: "drop" }, times: 5 });
    expect((await admin("DELETE", "/faults")).status).toBe(204);
    expect((await api("/users/search?q=chen")).status).toBe(200);
  });
});

describe("example emulator: request log and admin API", () => {
  it("counts tenant requests, not admin ones, with the credential redacted", async () => {
    await api("/users/search?q=chen&limit=2");
    await send(`${emulator.url}/users/search?q=ana`, emulator.caPem);
    expect((await admin("GET", "/health")).status).toBe(200);
    const listed = await admin("GET", "/requests");
    expect(listed.status).toBe(200);
    const log = JSON.parse(listed.body) as { count: number; entries: { query: unknown; headers: unknown }[] };
    expect(log.count).toBe(2);
    expect(emulator.requests.count()).toBe(2);
    expect(log.entries[0]).toMatchObject({
      query: { q: "chen", limit: "2" },
      headers: { authorization: "REDACTED" },
    });
    expect(listed.body).not.toContain(emulator.apiKey);
    expect(emulator.requests.entries()[0]).toMatchObject({ method: "GET", path: "/api/users/search" });

    expect((await admin("DELETE", "/requests")).status).toBe(204);
    expect(emulator.requests.count()).toBe(0);
  });

  it("refuses the admin API without its own secret", async () => {
    for (const key of ["", emulator.apiKey, "wrong"]) {
      const reply = await admin("GET", "/requests", undefined, key);
      expect(reply.status).toBe(401);
    }
    expect((await admin("POST", "/faults", { fault: { kind: "drop" } }, emulator.apiKey)).status).toBe(401);
    expect((await api("/users/search?q=chen")).status).toBe(200);
  });
});

describe("example emulator: transport", () => {
  it("never serves data over plain HTTP", async () => {
    expect(await plainHttpGet(port, "/api/users/search?q=a", auth(emulator.apiKey))).toMatch(/^error /);
    const raw = await rawExchange(port, "GET /api/users/search?q=a HTTP/1.1\r\n\r\n");
    expect(raw).not.toContain("HTTP/");
    expect(raw).not.toContain("usr_");
  });

  it("is trusted by a plain fetch in a child process through NODE_EXTRA_CA_CERTS", async () => {
    const caFile = await writeCaFile({ certPem: emulator.caPem, keyPem: "" });
    const script = `fetch(process.env.EX_URL + "/users/search?q=chen", {
      headers: { authorization: "Bearer " + process.env.EX_KEY },
    }).then(async (r) => console.log(JSON.stringify({ status: r.status, body: await r.json() })));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, EX_URL: emulator.url, EX_KEY: emulator.apiKey },
      timeout: 10_000,
    });
    await rm(dirname(caFile), { recursive: true, force: true });
    const result = JSON.parse(stdout) as { status: number; body: SearchBody };
    expect(result.status).toBe(200);
    expect(result.body.total).toBe(4);
  });

  it("closes promptly while a delayed request is pending", async () => {
    const other = await startExampleEmulator();
    other.faults.inject({ kind: "delay", ms: 60_000 }, {});
    const pending = send(`${other.url}/users/search?q=chen`, other.caPem, { headers: auth(other.apiKey) });
    while (other.requests.count() === 0) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow();
  });
});
