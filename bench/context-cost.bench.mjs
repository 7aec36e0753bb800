// Context cost: what an answer costs an agent's context window. Bytes and tokens (o200k_base, the
// tokenizer of GPT-4o and later, from the gpt-tokenizer package) of the markdown and json answers for a
// 20-item list and for one full record, against the raw API JSON of the same data: the bodies of the
// very remote requests the tool made (from the emulator's request log), fetched again with the same
// credential; and what each answer weighs on the wire (the whole result: text, structured copy, files)
// against its text. Then each server's tools/list on its default surface and on `all` (MCP_TOOLSETS),
// and both servers together. Goals: a markdown list answer at most 25 % of the raw JSON; wire at most 3x
// the text; the surface budget of test/support/surface-budget.mjs (the one the surface test holds):
// default surfaces (every read) <= 25 tools a server and 10,000 tokens both together, `all` <= 30 tools
// a server and 15,000 tokens together, no tool over 450 tokens. A call whose tool the surface does not list is skipped with a note (tools are renamed
// and merged while the surface changes), never counted.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startExampleEmulator } from "../packages/emulators/dist/example/index.js";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { exampleService } from "../packages/lab-mcp/dist/services/example/index.js";
import { labdataService } from "../packages/lab-mcp/dist/services/labdata/index.js";
import {
  EXAMPLE_SAMPLES,
  LABDATA_SAMPLES,
  labdataDemoIds,
  PROTOCOLS_SAMPLES,
  sampleCalls,
} from "../test/support/sample-calls.mjs";
import { SURFACE_BUDGET } from "../test/support/surface-budget.mjs";
import {
  basicAuth,
  caFromEnv,
  connectInMemory,
  connectStdio,
  httpsGet,
  print,
  ROOT,
  sequenceIds,
  textOf,
  watchdog,
  wireBytes,
} from "./lib.mjs";
import { signedInProtocols } from "./protocols-sign-in.mjs";
import { everyToolRatios, ratioRow, WIRE_GOAL } from "./wire-ratios.mjs";

const EVERYTHING = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);

async function servers(ca, cleanups) {
  const list = [];
  const example = await startExampleEmulator({ ca });
  cleanups.push(() => example.close());
  list.push({
    name: "example_mcp",
    definition: exampleService,
    env: { EXAMPLE_BASE_URL: example.url, EXAMPLE_API_KEY: example.apiKey },
    emulator: example,
    origin: new URL(example.url).origin,
    authorization: `Bearer ${example.apiKey}`,
    list: {
      label: "20 users (search 'example')",
      name: "example_search_users",
      arguments: { query: "example", limit: 20 },
    },
    records: [],
    everyTool: {
      env: { EXAMPLE_BASE_URL: example.url, EXAMPLE_API_KEY: example.apiKey },
      calls: sampleCalls(EXAMPLE_SAMPLES, {}),
    },
  });

  // With its warehouse (a real PostgreSQL): the warehouse tools are in the default surface.
  const labdata = await startLabdataEmulator({ ca, warehouse: { tenants: ["acme"] } });
  cleanups.push(() => labdata.close());
  const { demo } = labdata;
  const warehouseUrl = (await labdata.warehouse(demo.tenant)).url;
  const [id, spare] = await sequenceIds(
    labdata.tenant(demo.tenant).apiUrl,
    demo.user.apiKey,
    demo.projects["Plasmid Library"],
    2,
    ca.certPem,
  );
  list.push({
    name: "labdata_mcp",
    definition: labdataService,
    env: {
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_API_KEY: demo.user.apiKey,
      LABDATA_WAREHOUSE_URL: warehouseUrl,
    },
    emulator: labdata,
    origin: labdata.url,
    authorization: basicAuth(demo.user.apiKey),
    list: {
      label: "20 DNA sequences (Plasmid Library)",
      name: "labdata_list_entities",
      arguments: { project_id: demo.projects["Plasmid Library"], limit: 20 },
    },
    records: [
      {
        label: "one DNA sequence",
        name: "labdata_get_entity",
        arguments: { id },
        exports: [
          { form: "FASTA (export tool)", name: "labdata_export_dna_sequence", arguments: { id } },
          {
            form: "GenBank (export tool)",
            name: "labdata_export_dna_sequence",
            arguments: { id, format: "genbank" },
          },
        ],
      },
    ],
    // Every tool, writes and destructive ones too; signing out forgets nothing outside a temp file.
    everyTool: {
      env: {
        LABDATA_BASE_URL: demo.baseUrl,
        LABDATA_API_KEY: demo.user.apiKey,
        LABDATA_WAREHOUSE_URL: warehouseUrl,
        MCP_ALLOW_DESTRUCTIVE: "true",
        LABDATA_CREDENTIALS_FILE: join(scratch(cleanups), "labdata.json"),
      },
      calls: sampleCalls(LABDATA_SAMPLES, labdataDemoIds(demo, spare)),
    },
  });

  if (existsSync(join(ROOT, "packages", "lab-mcp", "dist", "services", "protocols", "index.js"))) {
    const { startProtocolsEmulator } = await import("../packages/emulators/dist/protocols/index.js");
    const { protocolsService } = await import("../packages/lab-mcp/dist/services/protocols/index.js");
    const protocols = await startProtocolsEmulator({ ca });
    cleanups.push(() => protocols.close());
    const downloads = mkdtempSync(join(tmpdir(), "lab-mcp-bench-pdfs-"));
    cleanups.push(() => rmSync(downloads, { recursive: true, force: true }));
    const protocol = String(protocols.demo.sampleProtocol.id);
    list.push({
      name: "protocols_mcp",
      definition: protocolsService,
      env: {
        PROTOCOLS_BASE_URL: protocols.url,
        PROTOCOLS_ACCESS_TOKEN: protocols.demo.clientAccessToken,
        PROTOCOLS_DOWNLOAD_DIR: downloads,
      },
      emulator: protocols,
      origin: protocols.url,
      authorization: `Bearer ${protocols.demo.clientAccessToken}`,
      // Signed in with OAuth the server lists the authoring tools too: its tools/list is measured so as well.
      oauthEnv: {
        PROTOCOLS_BASE_URL: protocols.url,
        PROTOCOLS_CLIENT_ID: protocols.demo.application.clientId,
        PROTOCOLS_CLIENT_SECRET: protocols.demo.application.clientSecret,
        PROTOCOLS_REDIRECT_URI: protocols.demo.application.redirectUri,
        PROTOCOLS_TOKEN_FILE: join(downloads, "no-token.json"),
        PROTOCOLS_DOWNLOAD_DIR: downloads,
      },
      list: { label: "20 protocols (public)", name: "protocols_search", arguments: { limit: 20 } },
      records: [
        { label: "one protocol", name: "protocols_get_protocol", arguments: { protocol } },
        {
          label: "one protocol's steps",
          name: "protocols_get_protocol",
          arguments: { protocol, part: "steps" },
        },
      ],
      everyTool: {
        env: {
          PROTOCOLS_BASE_URL: protocols.url,
          PROTOCOLS_TOKEN_FILE: join(downloads, "tokens.json"),
          PROTOCOLS_DOWNLOAD_DIR: downloads,
          MCP_ALLOW_DESTRUCTIVE: "true",
        },
        calls: sampleCalls(PROTOCOLS_SAMPLES, { protocolId: protocol }),
        signIn: true,
      },
    });
  } else {
    notes.push("protocols_mcp: not measured, not built yet (needs protocols_mcp).");
  }
  return list;
}

const notes = [];
/** A temp folder removed at the end. */
function scratch(cleanups) {
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-bench-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const size = (text) => ({ bytes: Buffer.byteLength(text), tokens: countTokens(text) });
const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;

/** The tool's answer, and the raw bodies of the remote requests it made, fetched again. */
async function answerAndRaw(server, client, call, ca) {
  server.emulator.requests.clear();
  const result = await client.callTool({ name: call.name, arguments: call.arguments });
  const text = textOf(result);
  const wire = wireBytes(result);
  const requests = server.emulator.requests.entries();
  if (requests.length === 0) throw new Error(`${call.name} made no remote request`);
  let raw = "";
  for (const request of requests) {
    const url = new URL(request.path, server.origin);
    for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
    const { status, body } = await httpsGet(url.href, {
      ca,
      headers: { authorization: server.authorization },
    });
    if (status !== 200) throw new Error(`raw ${url.pathname}: ${status}`);
    raw += body.toString();
  }
  return { text, wire, raw, requests: requests.length };
}

/** The surfaces measured: the default, `all`, and whatever MCP_TOOLSETS the bench was started with. */
function surfaces() {
  const list = [
    { name: "default", env: {} },
    { name: "all", env: { MCP_TOOLSETS: "all" } },
  ];
  const asked = process.env.MCP_TOOLSETS?.trim();
  if (asked && asked !== "all") list.push({ name: `MCP_TOOLSETS=${asked}`, env: { MCP_TOOLSETS: asked } });
  return list;
}

/**
 * The server on a surface. Until a server knows MCP_TOOLSETS=all, `all` is every toolset it declares
 * by name (today the default too), with a note.
 */
async function connectSurface(server, env, surface) {
  try {
    return await connectInMemory(server.definition, { ...env, ...surface.env });
  } catch (error) {
    if (surface.env.MCP_TOOLSETS !== "all" || error?.name !== "ConfigError") throw error;
    const toolsets = Object.keys(server.definition.toolsets ?? {});
    if (toolsets.length === 0) return connectInMemory(server.definition, env);
    notes.push(`${server.name}: MCP_TOOLSETS=all refused (${error.message}); all = ${toolsets.join(",")}.`);
    return connectInMemory(server.definition, { ...env, MCP_TOOLSETS: toolsets.join(",") });
  }
}

/** Bytes and tokens of a tools array as tools/list sends it; the heaviest tool by tokens. */
function listCost(tools) {
  const whole = size(JSON.stringify({ tools }));
  const heaviest = tools
    .map((tool) => ({ name: tool.name, tokens: countTokens(JSON.stringify(tool)) }))
    .sort((a, b) => b.tokens - a.tokens)[0];
  return { tools: tools.length, ...whole, heaviest };
}

const listRow = (server, surface, cost) => [
  server,
  surface,
  cost.tools,
  cost.bytes,
  cost.tokens,
  cost.tools ? Math.round(cost.tokens / cost.tools) : 0,
  cost.heaviest ? `${cost.heaviest.name} (${cost.heaviest.tokens})` : "-",
];

/** The ratio rows of every tool of `server`, on its whole surface (signed in, for protocols_mcp). */
async function everyTool(server) {
  const { env, calls, signIn } = server.everyTool;
  const settings = { ...env, MCP_TOOLSETS: "all" };
  const connection = signIn
    ? await signedInProtocols(server.definition, settings, server.emulator)
    : await connectInMemory(server.definition, settings);
  try {
    const done = signIn ? [ratioRow(server.name, "protocols_sign_in", connection.signIn)] : [];
    return await everyToolRatios(server.name, connection.client, calls, done);
  } finally {
    await connection.close();
  }
}

async function main() {
  watchdog("context-cost", 120_000);
  const ca = caFromEnv();
  const cleanups = [];
  try {
    const list = await servers(ca, cleanups);
    const answers = [];
    const listShares = [];
    const wireRatios = [];
    const listRows = [];
    const totals = new Map();
    /** Tools of each server (protocols signed in) by surface: the per-server part of the budget. */
    const serverTools = new Map();
    for (const server of list) {
      for (const surface of surfaces()) {
        for (const [credential, env] of [
          ["", server.env],
          [" (OAuth)", server.oauthEnv],
        ]) {
          if (!env) continue;
          const connection = await connectSurface(server, env, surface);
          const cost = listCost((await connection.client.listTools()).tools);
          await connection.close();
          listRows.push(listRow(`${server.name}${credential}`, surface.name, cost));
          // Both servers together: labdata and protocols as most users run them (protocols signed in).
          if (server.name === "example_mcp" || (server.oauthEnv && !credential)) continue;
          const total = totals.get(surface.name) ?? { tools: 0, bytes: 0, tokens: 0, heaviest: undefined };
          total.tools += cost.tools;
          total.bytes += cost.bytes;
          total.tokens += cost.tokens;
          if (!total.heaviest || cost.heaviest?.tokens > total.heaviest.tokens)
            total.heaviest = cost.heaviest;
          totals.set(surface.name, total);
          serverTools.set(surface.name, [
            ...(serverTools.get(surface.name) ?? []),
            { name: server.name, tools: cost.tools },
          ]);
        }
      }

      const connection = await connectSurface(server, server.env, {
        name: "all",
        env: { MCP_TOOLSETS: "all" },
      });
      cleanups.push(() => connection.close());
      const listed = new Set((await connection.client.listTools()).tools.map((tool) => tool.name));
      const known = (call) => {
        if (listed.has(call.name)) return true;
        notes.push(`${server.name}: ${call.name} is not listed; "${call.label ?? call.form}" not measured.`);
        return false;
      };

      /** Raw, markdown and json of one call, then any other forms of the same data. */
      const forms = async (call, label, others = []) => {
        const markdown = await answerAndRaw(server, connection.client, call, ca.certPem);
        const ratio = markdown.wire / Buffer.byteLength(markdown.text);
        wireRatios.push([
          server.name,
          call.name,
          label,
          Buffer.byteLength(markdown.text),
          markdown.wire,
          `${ratio.toFixed(1)}x${ratio <= 3 ? "" : " (NOT met)"}`,
        ]);
        const raw = size(markdown.raw);
        const s = markdown.requests > 1 ? "s" : "";
        answers.push([
          server.name,
          label,
          `raw API JSON (${markdown.requests} request${s})`,
          raw.bytes,
          raw.tokens,
          "100.0 %",
          "100.0 %",
          "-",
        ]);
        const add = (form, answer) => {
          const measured = size(answer.text);
          answers.push([
            server.name,
            label,
            form,
            measured.bytes,
            measured.tokens,
            pct(measured.bytes, raw.bytes),
            pct(measured.tokens, raw.tokens),
            answer.wire,
          ]);
          return measured;
        };
        const md = add("markdown answer", markdown);
        const jsonCall = { ...call, arguments: { ...call.arguments, response_format: "json" } };
        add("json answer", await answerAndRaw(server, connection.client, jsonCall, ca.certPem));
        for (const other of others.filter(known))
          add(other.form, await answerAndRaw(server, connection.client, other, ca.certPem));
        return { md, raw };
      };
      if (known(server.list)) {
        const { md, raw } = await forms(server.list, server.list.label);
        listShares.push(
          `${server.name} ${pct(md.bytes, raw.bytes)}${md.bytes <= raw.bytes * 0.25 ? "" : " (NOT met)"}`,
        );
      }
      for (const record of server.records.filter(known)) await forms(record, record.label, record.exports);
    }
    // Last: every tool, whose writes change the emulators' data that the answers above measured.
    const toolRows = [];
    for (const server of list) toolRows.push(...(await everyTool(server)));

    const everything = await connectStdio({
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      env: {},
    });
    listRows.push(
      listRow("server-everything (reference)", "-", listCost((await everything.client.listTools()).tools)),
    );
    await everything.close();
    for (const [surface, total] of totals) listRows.push(listRow("labdata + protocols", surface, total));
    const goal = (surface, toolsPerServer, tokens) => {
      const total = totals.get(surface);
      if (!total) return `${surface}: not measured`;
      const servers = serverTools.get(surface) ?? [];
      const met = total.tokens <= tokens && servers.every((server) => server.tools <= toolsPerServer);
      const counts = servers.map((server) => `${server.name} ${server.tools}`).join(", ");
      return `${surface}: ${counts} tools, ${total.tokens} tokens together (goal <= ${toolsPerServer} a server and <= ${tokens} together: ${met ? "met" : "NOT met"})`;
    };
    const heaviest = Math.max(...[...totals.values()].map((total) => total.heaviest?.tokens ?? 0));

    print(
      ["server", "data", "form", "bytes", "tokens", "bytes vs raw", "tokens vs raw", "wire bytes"],
      answers,
      [
        "Raw: the JSON bodies the remote sent for the requests the tool made (taken from the emulator's request log and",
        "fetched again with the same credential). Markdown and json: the tool's answers (response_format). Tokens:",
        "o200k_base (gpt-tokenizer). Wire bytes: the whole tool result as JSON (text, structuredContent, files).",
        `Goal: markdown list answer <= 25 % of the raw JSON (bytes): ${listShares.join("; ")}.`,
      ],
      3,
    );
    process.stdout.write("\n");
    print(
      ["server", "tool", "data", "markdown text bytes", "wire bytes", "wire / text"],
      wireRatios,
      [
        "A markdown answer on the wire (the whole result as JSON) against its text. Goal: <= 3x for every tool.",
      ],
      3,
    );
    process.stdout.write("\n");
    const over = toolRows.filter((row) => String(row[4]).includes("over")).map((row) => row[1]);
    print(
      ["server", "tool", "markdown text bytes", "wire bytes", "wire / text"],
      toolRows,
      [
        "Every tool of every server (MCP_TOOLSETS=all, destructive tools allowed, protocols_mcp signed in with",
        "OAuth): one typical successful markdown call each (test/support/sample-calls.mjs), its whole result as JSON",
        `against its text. Goal: <= ${WIRE_GOAL}x for every tool: ${over.length === 0 ? "met" : `NOT met (${over.join(", ")})`}.`,
      ],
      2,
    );
    process.stdout.write("\n");
    print(
      [
        "server",
        "surface",
        "tools",
        "tools/list bytes",
        "tools/list tokens",
        "tokens per tool",
        "heaviest tool (tokens)",
      ],
      listRows,
      [
        "The tools array of tools/list as JSON (names, titles, descriptions, input and output schemas, annotations);",
        "surface: the server started without MCP_TOOLSETS (default) and with MCP_TOOLSETS=all. protocols_mcp with",
        "its client token (read-only) and signed in with OAuth (writes too with all); the sums count protocols",
        "signed in. Goals (test/support/surface-budget.mjs, held by test/conventions/surface-size.test.ts):",
        `${goal("default", SURFACE_BUDGET.toolsPerServer, SURFACE_BUDGET.bothDefaultsTokens)};`,
        `${goal("all", SURFACE_BUDGET.toolsPerServerWithWrites, SURFACE_BUDGET.bothAllTokens)};`,
        `heaviest tool ${heaviest} tokens (goal <= ${SURFACE_BUDGET.toolTokens}: ${heaviest <= SURFACE_BUDGET.toolTokens ? "met" : "NOT met"}).`,
        ...new Set(notes),
      ],
      2,
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  }
}

await main();
