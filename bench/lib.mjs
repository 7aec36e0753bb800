// Helpers shared by every benchmark; not a benchmark itself (bench/run.mjs runs only *.bench.mjs files).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { request } from "node:https";
import { join } from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../packages/lab-mcp/dist/core/server/factory.js";
import { prepare } from "../packages/lab-mcp/dist/core/start/run.js";

export const ROOT = join(import.meta.dirname, "..");
/** The tool servers' bins are the product package's; the others the emulators package's. */
const PRODUCT_BINS = new Set(["labdata-mcp", "protocols-mcp", "example-mcp"]);
export const binPath = (name) =>
  join(ROOT, "packages", PRODUCT_BINS.has(name) ? "lab-mcp" : "emulators", "dist", "bin", `${name}.js`);

export function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  return Number(raw);
}

export function caFromEnv() {
  const certPem = process.env.BENCH_CA_CERT;
  const keyPem = process.env.BENCH_CA_KEY;
  if (!certPem || !keyPem || !process.env.NODE_EXTRA_CA_CERTS) {
    throw new Error(
      "BENCH_CA_CERT, BENCH_CA_KEY and NODE_EXTRA_CA_CERTS must be set: run through bench/run.mjs",
    );
  }
  return { certPem, keyPem };
}

/** Children still running, killed if the benchmark is interrupted or its watchdog fires. */
export const liveChildren = new Set();
function track(child) {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  return child;
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of liveChildren) child.kill("SIGKILL");
    process.exit(130);
  });
}

/** Fails the benchmark (rather than waiting forever) past `ms`. */
export function watchdog(name, ms) {
  const timer = setTimeout(() => {
    process.stderr.write(`${name} did not finish within ${ms / 1000} s\n`);
    for (const child of liveChildren) child.kill("SIGKILL");
    process.exit(1);
  }, ms);
  timer.unref();
}

export function newClient(capabilities = {}) {
  return new Client({ name: "lab-mcp-bench", version: "1.0.0" }, { capabilities });
}

/**
 * The server of `definition` in this process, a client linked in memory; settings as the bin reads them;
 * `capabilities` of the client (e.g. URL elicitation, to sign in).
 */
export async function connectInMemory(definition, env, capabilities = {}) {
  const prepared = prepare(definition, [], env);
  const server = createMcpServer(definition, prepared.service, prepared.core);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient(capabilities);
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** A command (a bin of ours by default) over stdio; `pid` is the server process. */
export async function connectStdio({ bin, command = process.execPath, args, env }) {
  const transport = new StdioClientTransport({
    command,
    args: args ?? [binPath(bin)],
    env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += chunk.toString();
  });
  const client = newClient();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`stdio connect failed: ${error}; stderr: ${stderr}`);
  }
  const pid = transport.pid;
  return { client, pid, stderr: () => stderr, close: () => client.close() };
}

/** A Node script as a child process that trusts the benchmark's CA, killed with the benchmark. */
export function spawnScript(path, args, env, stdio) {
  const trust = { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "" };
  return track(spawn(process.execPath, [path, ...args], { env: { ...trust, ...env }, stdio }));
}

/** Stops a child and waits for it to exit. */
export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/** A script serving HTTP, once it says on stderr "listening on <url>". */
export async function startListening(path, args, env) {
  const child = spawnScript(path, args, env, ["ignore", "ignore", "pipe"]);
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line; stderr: ${stderr}`)), 15_000);
    // Until the server says where it listens. After that its stderr (a call log line per tool call over
    // HTTP) is read and dropped: kept and searched whole, it cost this process more CPU per call the
    // longer a benchmark ran, on the path of every HTTP row.
    const untilListening = (chunk) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        child.stderr.off("data", untilListening);
        child.stderr.resume();
        resolve(match[1]);
      }
    };
    child.stderr.on("data", untilListening);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${path} exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return { url, child, stop: () => stopChild(child) };
}

/** A bin of ours serving streamable HTTP on a free loopback port, once it says it listens. */
export function startHttpBin(bin, env) {
  return startListening(binPath(bin), [], { MCP_TRANSPORT: "http", MCP_PORT: "0", ...env });
}

export async function connectHttp(url) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = newClient();
  await client.connect(transport);
  return {
    client,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

export const MODERN_PROTOCOL = "2026-07-28";

/** A 2026-07-28 client (@modelcontextprotocol/client): no session, each request on its own. */
export async function connectModern(kind, target, env = {}, { fetch } = {}) {
  const transport =
    kind === "http"
      ? new ModernStreamableHTTPClientTransport(new URL(target), fetch ? { fetch } : undefined)
      : new ModernStdioClientTransport({
          command: process.execPath,
          args: [binPath(target)],
          env: {
            PATH: process.env.PATH ?? "",
            NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
            ...env,
          },
          stderr: "pipe",
        });
  // Pinned: left to negotiate, this client opens with initialize and gets a 2025-11-25 session.
  const client = new ModernClient(
    { name: "lab-mcp-bench", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
  );
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/**
 * The one text of a tool result (beside it a result may carry files: resource links and embedded
 * resources); throws on an error result unless `allowError`.
 */
export function textOf(result, allowError = false) {
  const texts = (result.content ?? []).filter((block) => block.type === "text");
  const [first] = texts;
  if (texts.length !== 1 || !first) {
    throw new Error(`expected one text block: ${JSON.stringify(result).slice(0, 300)}`);
  }
  if (result.isError && !allowError) throw new Error(`tool error: ${first.text}`);
  return first.text;
}

/** What a tool result weighs on the wire: the whole result as JSON (text, structured copy, files). */
export const wireBytes = (result) => Buffer.byteLength(JSON.stringify(result));

/** VmRSS and VmHWM (peak) of a process, in KiB, from /proc (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

export const basicAuth = (apiKey) => `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;

/** One HTTPS GET with Node's https module (the bench's own CA); resolves to status, headers and body. */
export function httpsGet(url, { ca, headers = {}, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** Ids of the live sequences of a project in the platform's default order, `count` at most. */
export async function sequenceIds(api, apiKey, projectId, count, ca) {
  const ids = [];
  let nextToken = "";
  while (ids.length < count) {
    const query = `projectId=${projectId}&pageSize=100${nextToken ? `&nextToken=${encodeURIComponent(nextToken)}` : ""}`;
    const { status, body } = await httpsGet(`${api}/dna-sequences?${query}`, {
      ca,
      headers: { authorization: basicAuth(apiKey) },
    });
    if (status !== 200) throw new Error(`listing failed: ${status} ${body.toString().slice(0, 200)}`);
    const parsed = JSON.parse(body.toString());
    ids.push(...parsed.dnaSequences.map((s) => s.id));
    nextToken = parsed.nextToken;
    if (!nextToken) break;
  }
  return ids.slice(0, count);
}

/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted, p) {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** A markdown table: the first `left` columns left-aligned, the others right-aligned. */
export function table(header, rows, left = 1) {
  const body = rows.map((cells) => cells.map(String));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => cells[column].length)),
  );
  const line = (cells) =>
    `| ${cells.map((cell, column) => (column < left ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(" | ")} |`;
  const rule = `|${widths.map((width, column) => (column < left ? `:${"-".repeat(width + 1)}` : `${"-".repeat(width + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}

/** Prints a table and its footnote lines. */
export function print(header, rows, notes = [], left = 1) {
  process.stdout.write(`${table(header, rows, left)}\n\n${notes.length ? `${notes.join("\n")}\n` : ""}`);
}
