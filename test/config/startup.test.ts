// Start-up of the built example-mcp bin with a controlled environment and arguments: every settings
// problem is one stderr line naming the setting and exit code 2, --help lists the settings, flags work
// as well as variables, and no secret given ever shows up in what the bin prints.
import { describe, expect, it } from "vitest";
import { binPath, connectHttp, expectSearchWorks, startListeningBin } from "../support/clients.js";
import { useExampleEmulator } from "../support/emulator.js";
import { type Finished, runToEnd } from "../support/processes.js";

const API_KEY = "ex_startup_secret_7d3f9a1c2b4e6f80";
const HTTP_TOKEN = "tok_startup_secret_0a9b8c7d6e5f4321";
const SECRETS = [API_KEY, HTTP_TOKEN];
const BASE_URL = "https://127.0.0.1:9/api";

type Outcome = Finished;

/** Runs the bin to its end with only PATH, NODE_EXTRA_CA_CERTS and `env`; killed (and rejected) after 10 s. */
function run(env: Record<string, string>, args: string[] = []): Promise<Outcome> {
  return runToEnd(
    process.execPath,
    [binPath("example-mcp"), ...args],
    { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "", ...env },
    10_000,
  );
}

/** Exit code 2, nothing on stdout, exactly one stderr line, no secret anywhere; returns that line. */
function settingsError(outcome: Outcome): string {
  expect(outcome.code, outcome.stderr).toBe(2);
  expect(outcome.stdout).toBe("");
  expect(outcome.stderr.endsWith("\n")).toBe(true);
  const lines = outcome.stderr.slice(0, -1).split("\n");
  expect(lines, outcome.stderr).toHaveLength(1);
  for (const secret of SECRETS) expect(outcome.stderr).not.toContain(secret);
  return lines[0] as string;
}

describe.concurrent("a settings problem is exit code 2 and one stderr line that names it", () => {
  it("missing EXAMPLE_BASE_URL", async () => {
    const line = settingsError(await run({ EXAMPLE_API_KEY: API_KEY }));
    expect(line).toBe(
      "example-mcp: Missing setting EXAMPLE_BASE_URL (or --base-url): HTTPS base URL of the example service, " +
        "e.g. https://127.0.0.1:8443/api. Run 'example-mcp --help' for all settings.",
    );
  });

  it("a stray argument, which may be half of an unquoted secret, is not printed back", async () => {
    const line = settingsError(await run({ EXAMPLE_BASE_URL: BASE_URL }, ["--api-key", "ex_part1", API_KEY]));
    expect(line).toContain("Unexpected argument (not shown)");
  });

  it("misspelt EXAMPLE_BASEURL", async () => {
    const line = settingsError(await run({ EXAMPLE_BASEURL: BASE_URL, EXAMPLE_API_KEY: API_KEY }));
    expect(line).toContain("EXAMPLE_BASEURL");
    expect(line).toContain("did you mean EXAMPLE_BASE_URL? Run 'example-mcp --help'");
  });

  it("misspelt MCP_TRANPORT", async () => {
    const line = settingsError(
      await run({ MCP_TRANPORT: "http", EXAMPLE_BASE_URL: BASE_URL, EXAMPLE_API_KEY: API_KEY }),
    );
    expect(line).toContain("MCP_TRANPORT");
    expect(line).toContain("did you mean MCP_TRANSPORT");
  });

  it("a plain-http base URL", async () => {
    const line = settingsError(
      await run({ EXAMPLE_BASE_URL: "http://127.0.0.1:1/api", EXAMPLE_API_KEY: API_KEY }),
    );
    expect(line).toContain("EXAMPLE_BASE_URL");
    expect(line).toMatch(/https/i);
  });

  it("an unknown transport, naming the allowed values", async () => {
    const line = settingsError(
      await run({ MCP_TRANSPORT: "carrier-pigeon", EXAMPLE_BASE_URL: BASE_URL, EXAMPLE_API_KEY: API_KEY }),
    );
    expect(line).toContain("MCP_TRANSPORT");
    expect(line).toContain("stdio");
    expect(line).toContain("http");
  });

  it("MCP_HTTP_TOKEN with the stdio transport", async () => {
    const line = settingsError(
      await run({ MCP_HTTP_TOKEN: HTTP_TOKEN, EXAMPLE_BASE_URL: BASE_URL, EXAMPLE_API_KEY: API_KEY }),
    );
    expect(line).toContain("MCP_HTTP_TOKEN");
    expect(line).toContain("stdio");
  });

  it("an unknown flag", async () => {
    const line = settingsError(
      await run({ EXAMPLE_BASE_URL: BASE_URL, EXAMPLE_API_KEY: API_KEY, MCP_HTTP_TOKEN: HTTP_TOKEN }, [
        "--bogus",
      ]),
    );
    expect(line).toContain("--bogus");
  });

  it("a non-loopback MCP_HOST without MCP_HTTP_TOKEN: other machines must present a token", async () => {
    const env = {
      EXAMPLE_BASE_URL: BASE_URL,
      EXAMPLE_API_KEY: API_KEY,
      MCP_TRANSPORT: "http",
      MCP_PORT: "0",
    };
    for (const host of ["0.0.0.0", "::", "192.0.2.10"]) {
      const line = settingsError(await run({ ...env, MCP_HOST: host }));
      expect(line).toBe(
        `example-mcp: MCP_HOST ${host} lets other machines connect, so MCP_HTTP_TOKEN is required (at least 32 ` +
          "random characters); or bind 127.0.0.1. Run 'example-mcp --help' for all settings.",
      );
    }
  });

  it("an MCP_HTTP_TOKEN shorter than 32 characters, blank or one character included, not echoed", async () => {
    const env = {
      EXAMPLE_BASE_URL: BASE_URL,
      EXAMPLE_API_KEY: API_KEY,
      MCP_TRANSPORT: "http",
      MCP_PORT: "0",
    };
    const short = HTTP_TOKEN.slice(0, 31);
    for (const [extra, args, length] of [
      [{ MCP_HTTP_TOKEN: "x" }, [], 1],
      [{ MCP_HTTP_TOKEN: short, MCP_HOST: "0.0.0.0" }, [], 31],
      [{}, ["--http-token", ""], 0],
      [{ MCP_HTTP_TOKEN: "   " }, [], 0],
    ] as const) {
      const outcome = await run({ ...env, ...extra }, [...args]);
      const line = settingsError(outcome);
      expect(line).toBe(
        `example-mcp: MCP_HTTP_TOKEN is too short (${length} characters); use at least 32 random characters, ` +
          "e.g. from 'openssl rand -hex 32'. Run 'example-mcp --help' for all settings.",
      );
      expect(outcome.stderr).not.toContain(short);
    }
  });

  it("a misspelt flag carrying a secret, without echoing the secret", async () => {
    const line = settingsError(await run({ EXAMPLE_BASE_URL: BASE_URL }, [`--api-kye=${API_KEY}`]));
    expect(line).toContain("--api-kye");
    expect(line).toContain("--api-key");
  });
});

describe("--help", () => {
  it("exits 0 and lists the settings on stdout", async () => {
    const outcome = await run({ EXAMPLE_API_KEY: API_KEY, MCP_HTTP_TOKEN: HTTP_TOKEN }, ["--help"]);
    expect(outcome.code).toBe(0);
    for (const name of ["EXAMPLE_BASE_URL", "EXAMPLE_API_KEY", "MCP_TRANSPORT", "MCP_PORT"]) {
      expect(outcome.stdout).toContain(name);
    }
    for (const flag of ["--base-url", "--api-key", "--transport", "--port"]) {
      expect(outcome.stdout).toContain(flag);
    }
    expect(outcome.stderr).toBe("");
    for (const secret of SECRETS) expect(outcome.stdout).not.toContain(secret);
  });
});

describe("flags instead of variables", () => {
  const emulator = useExampleEmulator();

  it("--base-url, --api-key, --transport http and --port 0 start a server that serves calls", async () => {
    const args = [
      "--base-url",
      emulator.url,
      "--api-key",
      emulator.apiKey,
      "--transport",
      "http",
      "--port",
      "0",
    ];
    const server = await startListeningBin("example-mcp", { args });
    try {
      expect(new URL(server.url).hostname).toBe("127.0.0.1");
      expect(new URL(server.url).port).not.toBe("0");
      const conn = await connectHttp(server.url);
      try {
        await expectSearchWorks(conn.client);
      } finally {
        await conn.close();
      }
      expect(server.stderr()).not.toContain(emulator.apiKey);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("a loopback MCP_HOST by name (localhost, ::1) needs no token", async () => {
    const args = ["--base-url", emulator.url, "--api-key", emulator.apiKey, "--transport", "http"];
    for (const host of ["localhost", "::1"]) {
      const server = await startListeningBin("example-mcp", {
        args: [...args, "--port", "0", "--host", host],
      });
      try {
        const conn = await connectHttp(server.url);
        try {
          await expectSearchWorks(conn.client);
        } finally {
          await conn.close();
        }
      } finally {
        expect(await server.stop()).toBe(0);
      }
    }
  });
});
