// The built labdata-emulator bin: starts, prints a banner whose credentials and curl lines work
// (including minting an ID token at the bundled identity provider), refuses bad flags with one stderr
// line and exit 2, and exits 0 on SIGTERM, removing the CA file it made.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:https";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { binPath } from "../../support/clients.js";

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnBin(
  args: string[],
): ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } {
  return spawn(process.execPath, [binPath("labdata-emulator"), ...args], {
    env: { PATH: process.env.PATH ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  }) as ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
}

async function runToEnd(args: string[]): Promise<Outcome> {
  const child = spawnBin(args);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const [code] = (await once(child, "close")) as [number | null];
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** HTTPS with the CA the bin wrote (not the test run's CA). */
function send(
  url: string,
  ca: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: body === undefined ? "GET" : "POST", ca, headers, agent: false },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const field = (banner: string, label: string): string => {
  const match = new RegExp(`^\\s*${label}:\\s+(\\S+)`, "m").exec(banner);
  if (!match?.[1]) throw new Error(`no '${label}' in the banner:\n${banner}`);
  return match[1];
};

describe("labdata-emulator bin", () => {
  it("prints a working banner and exits 0 on SIGTERM, removing its CA file", async () => {
    const child = spawnBin(["--seed", "1"]);
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, "exit");
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner; stderr: ${stderr}`)), 30_000);
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("Use it with:") && stdout.endsWith("\n")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const caFile = field(stdout, "CA file");
      const ca = readFileSync(caFile, "utf8");
      const acme = field(stdout, "tenant acme");
      const apiKey = field(stdout, "API key");
      for (const label of [
        "admin secret",
        "client id",
        "client secret",
        "identity provider",
        "idp admin secret",
      ]) {
        expect(field(stdout, label).length).toBeGreaterThan(8);
      }
      expect(stdout).toContain(`curl --cacert ${caFile} -u '${apiKey}:'`);
      const warehouseUrl = field(stdout, "acme warehouse");
      expect(warehouseUrl).toMatch(/^postgres:\/\/127\.0\.0\.1:\d+\/warehouse$/);
      expect(stdout).toContain(
        `LABDATA_BASE_URL=${acme} LABDATA_API_KEY=${apiKey} LABDATA_WAREHOUSE_URL=${warehouseUrl} NODE_EXTRA_CA_CERTS=${caFile}`,
      );

      const auth = { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` };
      const me = await send(`${acme}/api/v2/users/me`, ca, auth);
      expect(me).toMatchObject({ status: 200, json: { email: "mira.patel@acme.example" } });
      const listed = await send(`${acme}/api/v2/dna-sequences?pageSize=5&sort=name`, ca, auth);
      expect(listed.json.dnaSequences).toHaveLength(5);

      const issuer = field(stdout, "identity provider");
      const minted = await send(
        `${issuer}/_admin/id-tokens`,
        ca,
        { authorization: `Bearer ${field(stdout, "idp admin secret")}`, "content-type": "application/json" },
        JSON.stringify({ email: "mira.patel@acme.example", audience: "labdata-acme" }),
      );
      expect(minted.status).toBe(201);
      const viaOidc = await send(`${acme}/api/v2/users/me`, ca, {
        authorization: `Bearer ${minted.json.id_token}`,
      });
      expect(viaOidc.json.id).toBe(me.json.id);

      // The printed warehouse answers a login minted with the printed API key, over TLS with the CA file.
      const login = await send(
        `${acme}/api/v2/warehouse-credentials`,
        ca,
        { ...auth, "content-type": "application/json" },
        JSON.stringify({ expiresIn: 600 }),
      );
      expect(login.status).toBe(200);
      const address = new URL(warehouseUrl);
      const warehouse = new pg.Client({
        host: address.hostname,
        port: Number(address.port),
        database: address.pathname.slice(1),
        user: String(login.json.username),
        password: String(login.json.password),
        ssl: { ca },
      });
      await warehouse.connect();
      const { rows } = await warehouse.query("SELECT count(*)::int AS n FROM project");
      await warehouse.end();
      expect(rows[0]?.n).toBeGreaterThan(0);

      child.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expect(existsSync(caFile)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("refuses a bad flag with one stderr line and exit code 2", async () => {
    for (const args of [["--port", "99999"], ["--seed", "-3"], ["--colour"], ["stray"]]) {
      const outcome = await runToEnd(args);
      expect(outcome.code, outcome.stderr).toBe(2);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(outcome.stderr).toMatch(/^labdata-emulator: /);
    }
  });

  it("prints its usage with --help", async () => {
    const outcome = await runToEnd(["--help"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("Usage: labdata-emulator [--port <n>] [--seed <n>] [--ca-file <path>]");
  });
});
