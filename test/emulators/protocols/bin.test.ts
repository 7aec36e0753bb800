// The built protocols-emulator bin: prints what a person needs (URL, secrets, demo users, application,
// client token, CA file, curl examples), serves with its own CA, and exits 0 on SIGTERM or SIGINT,
// removing the CA file it made. Bad flags: one stderr line, exit 2.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DIALECT_PRESET } from "../../../packages/emulators/src/protocols/index.js";
import { binPath } from "../../support/clients.js";

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

function run(args: string[]): Running {
  // The bin makes its own CA; the test run's CA must not be needed.
  const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [binPath("protocols-emulator"), ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stdout: () => stdout, stderr: () => stderr };
}

async function waitForBanner(running: Running): Promise<string> {
  // The last line names the CA file; wait for all of it, since a pipe may deliver the banner in pieces.
  const complete = (): boolean => /NODE_EXTRA_CA_CERTS=\S+\n/.test(running.stdout());
  for (let i = 0; i < 150 && !complete() && running.child.exitCode === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!complete()) throw new Error(`no banner; stderr: ${running.stderr()}`);
  return running.stdout();
}

function field(banner: string, label: string): string {
  const value = new RegExp(`${label}\\s+(\\S+)`).exec(banner)?.[1];
  if (!value) throw new Error(`no ${label} in banner:\n${banner}`);
  return value;
}

function get(url: string, ca: string, token?: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      ca,
      agent: false,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.end();
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  const exited = once(child, "close");
  child.kill(signal);
  const [code] = await exited;
  return code as number | null;
}

describe("protocols-emulator bin", () => {
  it("prints the banner, serves with its CA, and on SIGTERM exits 0 and removes its CA file", async () => {
    const running = run(["--seed", "3"]);
    try {
      const banner = await waitForBanner(running);
      const url = field(banner, "base URL:");
      const caFile = field(banner, "CA file:");
      const token = field(banner, "CLIENT_ACCESS_TOKEN:");
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(field(banner, "admin secret:")).toMatch(/^pradm_[0-9a-f]{32}$/);
      expect(field(banner, "client_id:")).toMatch(/^pr_live_id_/);
      expect(field(banner, "client_secret:")).toMatch(/^pr_live_sc_/);
      expect(field(banner, "redirect_uri:")).toBe("http://127.0.0.1:8976/callback");
      expect(field(banner, "dialect:")).toBe(DEFAULT_DIALECT_PRESET);
      expect(banner).toMatch(/ada-okafor\s+password: [A-Za-z0-9]{16}\s+\(Ada Okafor\)/);
      expect(banner.match(/password: /g)).toHaveLength(6);
      expect(banner).toContain(
        `curl --cacert ${caFile} -H 'Authorization: Bearer ${token}' '${url}/api/v3/protocols?`,
      );
      expect(banner).toContain(`${url}/api/v3/oauth/authorize?client_id=`);
      expect(banner).toContain(
        `PROTOCOLS_BASE_URL=${url} PROTOCOLS_ACCESS_TOKEN=${token} NODE_EXTRA_CA_CERTS=${caFile}`,
      );

      const ca = readFileSync(caFile, "utf8");
      const profile = await get(`${url}/api/v3/session/profile`, ca, token);
      expect(profile.status).toBe(200);
      expect(JSON.parse(profile.body.toString())).toMatchObject({
        user: { username: "ada-okafor" },
        status_code: 0,
      });
      const pdfUrl = /-o protocol\.pdf '([^']+)'/.exec(banner)?.[1] ?? "";
      const pdf = await get(pdfUrl, ca);
      expect(pdf.status).toBe(200);
      expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");

      expect(await stop(running.child, "SIGTERM")).toBe(0);
      expect(existsSync(caFile)).toBe(false);
      expect(running.stderr()).toBe("");
    } finally {
      if (running.child.exitCode === null) running.child.kill("SIGKILL");
    }
  });

  it("keeps a CA file the user named, and exits 0 on SIGINT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "protocols-bin-"));
    const caFile = join(dir, "my-ca.pem");
    const running = run(["--ca-file", caFile, "--port", "0", "--dialect", "recorded"]);
    try {
      const banner = await waitForBanner(running);
      expect(field(banner, "dialect:")).toBe("recorded");
      const url = field(banner, "base URL:");
      const ca = readFileSync(caFile, "utf8");
      // The recorded dialect answers a bad token with HTTP 400 and status_code 1218.
      const refused = await get(`${url}/api/v3/session/profile`, ca, "f".repeat(64));
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body.toString())).toMatchObject({ status_code: 1218 });
      expect(await stop(running.child, "SIGINT")).toBe(0);
      expect(readFileSync(caFile, "utf8")).toContain("BEGIN CERTIFICATE");
    } finally {
      if (running.child.exitCode === null) running.child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers bad flags with one stderr line and exit 2, and --help with the usage", async () => {
    const bad = [
      ["--port", "70000"],
      ["--seed", "-1"],
      ["--bogus"],
      ["--ca-file", ""],
      ["extra"],
      ["--dialect", "2017"],
    ];
    const runs = [...bad, ["--help"]].map((args) => ({ args, running: run(args) }));
    const codes = await Promise.all(runs.map(({ running }) => once(running.child, "close")));
    runs.forEach(({ args, running }, i) => {
      const label = args.join(" ");
      if (args[0] === "--help") {
        expect(codes[i]?.[0], label).toBe(0);
        expect(running.stdout()).toContain(
          "Usage: protocols-emulator [--port <n>] [--seed <n>] [--ca-file <path>] [--dialect <preset>]",
        );
        return;
      }
      expect(codes[i]?.[0], label).toBe(2);
      expect(running.stderr().trimEnd().split("\n"), label).toHaveLength(1);
      expect(running.stderr(), label).toMatch(/^protocols-emulator: .+ \(see --help\)\n$/);
      expect(running.stdout(), label).toBe("");
    });
  });
});
