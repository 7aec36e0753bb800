// Start-up of labdata-mcp and protocols-mcp refuses settings that would put a secret where it leaks or
// cannot work: a token or credentials file inside a git work tree (one `git add .` from a commit), and
// a redirect URI with port 0 (any free port, never the registered one). One stderr line, exit code 2.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { binPath, startHttpBin } from "../support/clients.js";
import { type Finished, runToEnd } from "../support/processes.js";

const BASE_URL = "https://127.0.0.1:9";
const OAUTH = {
  PROTOCOLS_BASE_URL: BASE_URL,
  PROTOCOLS_CLIENT_ID: "pr_client_id",
  PROTOCOLS_CLIENT_SECRET: "pr_secret_4f1c9a7e2b8d6035",
  PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:8976/callback",
};

/** The bin's exit code and stderr; killed (and rejected) after 10 s. */
function run(bin: string, env: Record<string, string>): Promise<Finished> {
  return runToEnd(process.execPath, [binPath(bin)], { PATH: process.env.PATH ?? "", ...env }, 10_000);
}

/** A fresh folder that is the root of a git work tree (what `git init` leaves: a .git folder). */
function gitWorkTree(): string {
  const root = mkdtempSync(join(tmpdir(), "lab-mcp-repo-"));
  mkdirSync(join(root, ".git", "objects"), { recursive: true });
  mkdirSync(join(root, "config"));
  return root;
}

describe.concurrent("secret files inside a git work tree are refused at start-up", () => {
  it("PROTOCOLS_TOKEN_FILE", async () => {
    const root = gitWorkTree();
    const { code, stderr } = await run("protocols-mcp", {
      ...OAUTH,
      PROTOCOLS_TOKEN_FILE: join(root, "config", "tokens.json"),
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `protocols-mcp: PROTOCOLS_TOKEN_FILE is inside the git work tree ${root}, where a secret can end up in a ` +
        "commit; choose a file outside it. Run 'protocols-mcp --help' for all settings.\n",
    );
    expect(stderr).not.toContain(OAUTH.PROTOCOLS_CLIENT_SECRET);
  });

  it("PROTOCOLS_TOKEN_FILE for `protocols-mcp login` too", async () => {
    const root = gitWorkTree();
    const child = spawn(process.execPath, [binPath("protocols-mcp"), "login", "--no-browser"], {
      env: { PATH: process.env.PATH ?? "", ...OAUTH, PROTOCOLS_TOKEN_FILE: join(root, "tokens.json") },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain(`PROTOCOLS_TOKEN_FILE is inside the git work tree ${root}`);
  });

  it("LABDATA_CREDENTIALS_FILE", async () => {
    const root = gitWorkTree();
    const { code, stderr } = await run("labdata-mcp", {
      LABDATA_BASE_URL: BASE_URL,
      LABDATA_CREDENTIALS_FILE: join(root, "config", "deep", "labdata.json"),
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `labdata-mcp: LABDATA_CREDENTIALS_FILE is inside the git work tree ${root}, where a secret can end up in ` +
        "a commit; choose a file outside it. Run 'labdata-mcp --help' for all settings.\n",
    );
  });

  it("the same files outside any work tree are fine: the server starts", async () => {
    const outside = mkdtempSync(join(tmpdir(), "lab-mcp-plain-"));
    const child = spawn(process.execPath, [binPath("labdata-mcp")], {
      env: {
        PATH: process.env.PATH ?? "",
        LABDATA_BASE_URL: BASE_URL,
        LABDATA_CREDENTIALS_FILE: join(outside, "labdata.json"),
        MCP_TRANSPORT: "http",
        MCP_PORT: "0",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening after 10 s: ${stderr}`)), 10_000);
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("listening on")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", () => reject(new Error(`exited: ${stderr}`)));
    }).finally(() => child.kill("SIGKILL"));
  });
});

describe("a redirect URI with port 0", () => {
  it.each(["http://127.0.0.1:0/callback", "http://localhost:0/callback"])("%s is refused", async (uri) => {
    const tokens = mkdtempSync(join(tmpdir(), "lab-mcp-tokens-"));
    const { code, stderr } = await run("protocols-mcp", {
      ...OAUTH,
      PROTOCOLS_REDIRECT_URI: uri,
      PROTOCOLS_TOKEN_FILE: join(tokens, "tokens.json"),
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      "protocols-mcp: PROTOCOLS_REDIRECT_URI must be http://127.0.0.1:<port>/<path> or " +
        "http://localhost:<port>/<path> (this computer, with a port), as registered with your application. " +
        "Run 'protocols-mcp --help' for all settings.\n",
    );
  });
});

describe("every secret setting from a file: <NAME>_FILE", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-secrets-"));
  const token = "f3a9c1d7e5b2048a6c9e1f3d5b7a9c2e4f6a8b0d";
  const tokenFile = join(dir, "http-token");
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });

  it("MCP_HTTP_TOKEN_FILE: the server asks for the token the file holds", async () => {
    const server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: BASE_URL,
      LABDATA_API_KEY: "sk_unused",
      MCP_HTTP_TOKEN_FILE: tokenFile,
    });
    try {
      const ask = (authorization?: string) =>
        fetch(server.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(authorization ? { authorization } : {}),
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        });
      expect((await ask()).status).toBe(401);
      expect((await ask(`Bearer ${token}`)).status).not.toBe(401);
      expect(server.stderr()).not.toContain(token);
    } finally {
      await server.stop();
    }
  });

  it("MCP_AUTH_CLIENT_SECRET_FILE is a known setting, and --help says how secret files work", async () => {
    const child = spawn(process.execPath, [binPath("protocols-mcp"), "--help"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    await new Promise((resolve) => child.once("close", resolve));
    expect(stdout).toContain("<NAME>_FILE=/path/to/file (e.g. MCP_AUTH_CLIENT_SECRET_FILE");
    // Read, not refused as unknown: the file's absence is what it says.
    const { code, stderr } = await run("protocols-mcp", {
      PROTOCOLS_BASE_URL: BASE_URL,
      PROTOCOLS_ACCESS_TOKEN: "token",
      MCP_AUTH_CLIENT_SECRET_FILE: join(dir, "no-such-secret"),
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `protocols-mcp: MCP_AUTH_CLIENT_SECRET_FILE names ${join(dir, "no-such-secret")}, which cannot be read (ENOENT). ` +
        "Run 'protocols-mcp --help' for all settings.\n",
    );
  });

  it("a secret and its file both set is refused in one line", async () => {
    const { code, stderr } = await run("labdata-mcp", {
      LABDATA_BASE_URL: BASE_URL,
      LABDATA_API_KEY: "sk_one",
      LABDATA_API_KEY_FILE: tokenFile,
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      "labdata-mcp: Set LABDATA_API_KEY or LABDATA_API_KEY_FILE, not both. Run 'labdata-mcp --help' for all settings.\n",
    );
  });

  it("an empty file is refused in one line", async () => {
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n");
    const { code, stderr } = await run("protocols-mcp", {
      PROTOCOLS_BASE_URL: BASE_URL,
      PROTOCOLS_ACCESS_TOKEN_FILE: empty,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`PROTOCOLS_ACCESS_TOKEN_FILE names ${empty}, which is empty`);
  });
});
