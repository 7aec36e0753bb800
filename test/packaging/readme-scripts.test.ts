// The npm scripts the README tells a new user to run, run as they run them: in a fresh clone, from a
// shell's environment (no NODE_ENV=test, no test runner's variables). `npm run bundle` is tried the same
// way in mcpb-bundle.test.ts; `npm test`, lint, typecheck and bench are what CI itself runs.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePorts, waitFor } from "../sandbox/processes.js";
import { cleanCopy, userEnv } from "../support/clean-copy.js";
import { connectModernHttp } from "../support/clients.js";

const clone = cleanCopy();
const started: ChildProcess[] = [];

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  }
  rmSync(clone, { recursive: true, force: true });
});

/** `npm <args>` in the clone, in a process group of its own (npm, its shell and node), as a terminal runs it. */
function npm(args: string[]) {
  const child = spawn("npm", args, {
    cwd: clone,
    env: userEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  // npm, interrupted with its group, ends by the signal itself (no exit code): that is a clean stop too.
  const exit = once(child, "exit").then(([code, signal]) =>
    signal === "SIGINT" ? 0 : (code as number | null),
  );
  return {
    output: () => output,
    /** The exit code; the whole group is killed if it takes longer than `ms`. */
    async exited(ms: number) {
      const killer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), ms);
      const code = await exit;
      clearTimeout(killer);
      return code;
    },
    interrupt: () => child.pid && process.kill(-child.pid, "SIGINT"),
  };
}

describe("the README's npm scripts in a fresh clone", () => {
  it("npm start serves every server's tools on its banner's endpoints", { timeout: 240_000 }, async () => {
    const port = await freePorts(3);
    const sandbox = npm(["start", "--", "--port", String(port)]);
    await waitFor(() => sandbox.output().includes("paste it again after a restart"), "the banner", 180_000);
    const endpoints = [...sandbox.output().matchAll(/^ {2}\w+_mcp +(http:\/\/127\.0\.0\.1:\d+\/mcp)/gm)];
    expect(endpoints.map((match) => match[1])).toHaveLength(3);
    for (const [, url] of endpoints) {
      const { client, close } = await connectModernHttp(url as string);
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await close();
      }
    }
    sandbox.interrupt();
    expect(await sandbox.exited(30_000)).toBe(0);
  });

  it("npm run demo tours both servers and exits 0", { timeout: 240_000 }, async () => {
    const demo = npm(["run", "demo"]);
    const code = await demo.exited(200_000);
    expect(code, demo.output()).toBe(0);
    expect(demo.output()).toMatch(/Done\. The client saved the PDF/);
  });

  it("npm run fleet starts (here its --help: the fleet needs haproxy)", { timeout: 240_000 }, async () => {
    const fleet = npm(["run", "fleet", "--", "--help"]);
    expect(await fleet.exited(200_000), fleet.output()).toBe(0);
    expect(fleet.output()).toMatch(/Usage: lab-fleet/);
  });

  it("npm run docs leaves the generated parts of the README and docs/ as they are", {
    timeout: 240_000,
  }, async () => {
    const pages = [
      "README.md",
      ...readdirSync(join(clone, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => join("docs", name)),
    ];
    const read = () => pages.map((page) => readFileSync(join(clone, page), "utf8"));
    const before = read();
    const docs = npm(["run", "docs"]);
    expect(await docs.exited(200_000), docs.output()).toBe(0);
    expect(read()).toEqual(before);
  });
});
