import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import { binPath, binStdioTransport, connectHttp, ROOT, startHttpBin, textOf } from "../support/clients.js";
import { runToEnd } from "../support/processes.js";
import { type JsonSchema, validObject } from "./schema-cases.js";
import { type CredentialCase, canary, type RunningTarget, TARGETS } from "./targets.js";

const CALL_TIMEOUT_MS = 15_000;
/** Every canary of the run, for the scan of the project tree at the end. */
const allCanaries = new Set<string>();

/** The forms a secret can leak in: as is, base64 (Basic auth, with and without the colon), URL-encoded. */
function formsOf(secret: string): string[] {
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  return [...new Set([secret, b64(secret), b64(`${secret}:`), encodeURIComponent(secret)])];
}

/** Every leak of `canaries` in `text`, named by where the text came from. */
function leaks(where: string, text: string, canaries: string[]): string[] {
  return canaries.flatMap((secret) =>
    formsOf(secret)
      .filter((form) => text.includes(form))
      .map(
        (form) =>
          `${where} shows ${form === secret ? "the secret" : `an encoded form of ${secret.slice(0, 12)}…`}`,
      ),
  );
}

interface Transcript {
  /** Where -> what was seen there. */
  seen: Array<[string, string]>;
  results: Array<{ tool: string; text: string; isError: boolean }>;
}

/** Starts the bin over stdio with `env`, logging at debug, and runs every tool (and resource) once. */
async function runEverything(
  bin: string,
  env: Record<string, string>,
  running: RunningTarget,
  capabilities: ClientCapabilities = {},
  onElicit?: (url: string) => void,
): Promise<Transcript> {
  const { transport, stderr } = binStdioTransport(bin, env);
  const seen: Array<[string, string]> = [];
  const results: Transcript["results"] = [];
  const client = new Client({ name: "lab-mcp-tests", version: "1.0.0" }, { capabilities });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    seen.push(["a log notification", JSON.stringify(notification.params)]);
  });
  if (onElicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen.push(["an elicitation request", JSON.stringify(request.params)]);
      onElicit((request.params as { url: string }).url);
      return { action: "accept" };
    });
  }
  await client.connect(transport);
  try {
    await client.setLoggingLevel("debug");
    const { tools } = await client.listTools();
    const call = async (tool: Tool, args: Record<string, unknown>) => {
      const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS,
        onprogress: (progress) => seen.push(["a progress notification", JSON.stringify(progress)]),
      });
      seen.push([`the result of ${tool.name}`, JSON.stringify(result)]);
      results.push({ tool: tool.name, ...textOf(result) });
    };
    for (const tool of tools) {
      await call(tool, running.sampleArgs[tool.name] ?? validObject(tool.inputSchema as JsonSchema));
      // And once wrong, so that the validation error is looked at too.
      await call(tool, { ...running.sampleArgs[tool.name], unknown_field: "x" });
    }
    const { resources } = await client.listResources();
    const { resourceTemplates } = await client.listResourceTemplates();
    const uris = [
      ...resources.map((r) => r.uri),
      ...resourceTemplates.map((t) =>
        t.uriTemplate.replace(/\{([^}]+)\}/g, (_m, name: string) =>
          String(running.probe.arguments[name] ?? running.probe.arguments.id ?? "chen"),
        ),
      ),
    ];
    for (const uri of uris) {
      const answer = await client.readResource({ uri }, { timeout: CALL_TIMEOUT_MS }).then(
        (value) => JSON.stringify(value),
        (error: unknown) => String(error),
      );
      seen.push([`resource ${uri}`, answer]);
    }
  } finally {
    await client.close();
  }
  seen.push(["stderr", stderr()]);
  return { seen, results };
}

describe.each(TARGETS)("$serverName", (target) => {
  let running: RunningTarget;
  let cases: CredentialCase[];
  beforeAll(async () => {
    running = await target.start();
    running.liftRateLimit();
    cases = await running.credentialCases();
    for (const c of cases) for (const secret of c.canaries) allCanaries.add(secret);
  }, 30_000);
  afterAll(async () => {
    await running?.close();
  });

  it("runs every tool with each kind of credential, valid and refused, and never shows one", async () => {
    expect(cases.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const credential of cases) {
      const { seen, results } = await runEverything(target.bin, credential.env, running);
      for (const [where, text] of seen) {
        found.push(...leaks(`${credential.label}: ${where}`, text, credential.canaries));
        for (const pattern of running.secretPatterns ?? []) {
          if (pattern.test(text)) found.push(`${credential.label}: ${where} shows a match of ${pattern}`);
        }
      }
      // The run did what it should: with valid credentials the tools work, refused ones say 401.
      const authErrors = results.filter((r) => r.text === "Error: Invalid API authentication");
      if (credential.valid) expect(authErrors, credential.label).toEqual([]);
      else expect(authErrors.length, credential.label).toBeGreaterThan(0);
    }
    expect(found).toEqual([]);
  }, 90_000);

  it("never echoes a secret given with a mistake in the settings (start-up errors)", async () => {
    const secrets = settingsOf(target.definition).filter((spec) => spec.kind === "secret");
    const found: string[] = [];
    for (const spec of secrets) {
      const secret = canary("Startup");
      const other = canary("Startup");
      allCanaries.add(secret).add(other);
      const flag = spec.flag ?? `--${spec.env.split("_").slice(1).join("-").toLowerCase()}`;
      // Each with nothing else set, so that each fails to start, whatever else it says. `other` is a
      // secret too where it stands (an unknown option's value, a stray word), not where it is the bad
      // value of a plain setting, which the error may quote.
      const attempts: Array<{ args: string[]; env: Record<string, string>; secrets: string[] }> = [
        { args: [flag, secret, `--no-such-option=${other}`], env: {}, secrets: [secret, other] },
        { args: [`${flag}=${secret}`, other], env: {}, secrets: [secret, other] }, // half an unquoted secret
        { args: [], env: { [`${spec.env}S`]: secret }, secrets: [secret] }, // a misspelt variable
        { args: [], env: { [spec.env]: secret, MCP_PORT: "many" }, secrets: [secret] }, // a bad value beside
      ];
      const outcomes = await Promise.all(attempts.map(({ args, env }) => runToExit(target.bin, args, env)));
      for (const [i, { args, env, secrets }] of attempts.entries()) {
        const { code, output } = outcomes[i] as { code: number | null; output: string };
        expect(code, `${spec.env} ${args.join(" ")} ${Object.keys(env).join(" ")}: ${output}`).toBe(2);
        found.push(...leaks(`start-up with ${spec.env} ${args.length ? "flags" : "env"}`, output, secrets));
      }
    }
    expect(found).toEqual([]);
  }, 60_000);

  it("over HTTP, never shows MCP_HTTP_TOKEN, nor a wrong token a client sent", async () => {
    const token = canary("HttpToken");
    const wrong = canary("WrongHttpToken");
    allCanaries.add(token).add(wrong);
    const server = await startHttpBin(target.bin, { ...running.env, MCP_HTTP_TOKEN: token });
    const found: string[] = [];
    try {
      const connection = await connectHttp(server.url, token);
      const { text } = textOf(
        await connection.client.callTool({ name: running.probe.name, arguments: running.probe.arguments }),
      );
      expect(text.startsWith(running.probe.answerStartsWith)).toBe(true);
      await connection.close();
      const refused = await fetch(server.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${wrong}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(refused.status).toBe(401);
      found.push(
        ...leaks("the 401 answer", `${JSON.stringify([...refused.headers])}${await refused.text()}`, [
          token,
          wrong,
        ]),
      );
    } finally {
      await server.stop();
    }
    found.push(...leaks("stderr of the HTTP server", server.stderr(), [token, wrong]));
    expect(found).toEqual([]);
  });

  it("never shows a key the user typed on the secret page (asked for when none is configured)", async (ctx) => {
    const asked = running.askedKey;
    if (!asked) {
      ctx.skip();
      return;
    }
    allCanaries.add(asked.key);
    const { seen, results } = await runEverything(
      target.bin,
      asked.env,
      running,
      { elicitation: { url: {} } },
      (url) => {
        setTimeout(() => {
          void fetch(url, {
            method: "POST",
            body: new URLSearchParams({ secret: asked.key, remember: "on" }),
          });
        }, 5);
      },
    );
    expect(results.some((r) => !r.isError)).toBe(true);
    expect(seen.flatMap(([where, text]) => leaks(`asked key: ${where}`, text, [asked.key]))).toEqual([]);
    // Remembered where the user asked, outside the project (the file is the user's own, mode 0600).
    expect(readFileSync(asked.rememberedIn, "utf8")).toContain(asked.key);
    expect(statSync(asked.rememberedIn).mode & 0o777).toBe(0o600);
    expect(relative(ROOT, asked.rememberedIn).startsWith("..")).toBe(true);
  }, 60_000);
});

describe("the project tree, after every run above", () => {
  it("holds no canary in any file (node_modules and .git aside)", () => {
    expect(allCanaries.size).toBeGreaterThan(TARGETS.length);
    const forms = [...allCanaries].flatMap(formsOf).map((form) => Buffer.from(form));
    const found: string[] = [];
    let files = 0;
    const walk = (dir: string) => {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // removed while we walked (another suite's temp output)
      }
      for (const entry of entries) {
        if (entry.name === "node_modules" || entry.name === ".git") continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) {
          let content: Buffer;
          try {
            if (statSync(path).size > 20 * 1024 * 1024) continue;
            content = readFileSync(path);
          } catch {
            continue;
          }
          files++;
          if (forms.some((form) => content.includes(form))) found.push(relative(ROOT, path));
        }
      }
    };
    walk(ROOT);
    expect(files).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });
});

/** Runs the bin with only `env` (and PATH), to its exit: it is expected to refuse to start. Bounded. */
async function runToExit(
  bin: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const { code, stdout, stderr } = await runToEnd(
    process.execPath,
    [binPath(bin), ...args],
    { PATH: process.env.PATH ?? "", ...env },
    10_000,
  );
  return { code, output: stdout + stderr };
}
