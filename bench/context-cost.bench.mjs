// Context cost: what an answer costs an agent's context window. Bytes and tokens (o200k_base, the
// tokenizer of GPT-4o and later, from the gpt-tokenizer package) of the markdown and json answers for a
// 20-item list and for one full record, against the raw API JSON of the same data: the bodies of the
// very remote requests the tool made (from the emulator's request log), fetched again with the same
// credential. And the total size of each server's tools/list. Goal: a markdown list answer at most 25 %
// of the raw JSON.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startExampleEmulator } from "../packages/emulators/dist/example/index.js";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { exampleService } from "../packages/lab-mcp/dist/services/example/index.js";
import { labdataService } from "../packages/lab-mcp/dist/services/labdata/index.js";
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
} from "./lib.mjs";

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
  });

  const labdata = await startLabdataEmulator({ ca });
  cleanups.push(() => labdata.close());
  const { demo } = labdata;
  const [id] = await sequenceIds(
    labdata.tenant(demo.tenant).apiUrl,
    demo.user.apiKey,
    demo.projects["Plasmid Library"],
    1,
    ca.certPem,
  );
  list.push({
    name: "labdata_mcp",
    definition: labdataService,
    env: { LABDATA_BASE_URL: demo.baseUrl, LABDATA_API_KEY: demo.user.apiKey },
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
      list: { label: "20 protocols (public)", name: "protocols_search", arguments: { limit: 20 } },
      records: [
        { label: "one protocol", name: "protocols_get_protocol", arguments: { protocol } },
        { label: "one protocol's steps", name: "protocols_get_steps", arguments: { protocol } },
      ],
    });
  } else {
    notes.push("protocols_mcp: not measured, not built yet (needs protocols_mcp).");
  }
  return list;
}

const notes = [];
const size = (text) => ({ bytes: Buffer.byteLength(text), tokens: countTokens(text) });
const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;

/** The tool's answer, and the raw bodies of the remote requests it made, fetched again. */
async function answerAndRaw(server, client, call, ca) {
  server.emulator.requests.clear();
  const text = textOf(await client.callTool({ name: call.name, arguments: call.arguments }));
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
  return { text, raw, requests: requests.length };
}

async function main() {
  watchdog("context-cost", 120_000);
  const ca = caFromEnv();
  const cleanups = [];
  try {
    const list = await servers(ca, cleanups);
    const answers = [];
    const toolLists = [];
    const listShares = [];
    for (const server of list) {
      const connection = await connectInMemory(server.definition, server.env);
      cleanups.push(() => connection.close());
      const { tools } = await connection.client.listTools();
      toolLists.push([server.name, tools]);

      /** Raw, markdown and json of one call, then any other forms of the same data. */
      const forms = async (call, label, others = []) => {
        const markdown = await answerAndRaw(server, connection.client, call, ca.certPem);
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
        ]);
        const add = (form, text) => {
          const measured = size(text);
          answers.push([
            server.name,
            label,
            form,
            measured.bytes,
            measured.tokens,
            pct(measured.bytes, raw.bytes),
            pct(measured.tokens, raw.tokens),
          ]);
          return measured;
        };
        const md = add("markdown answer", markdown.text);
        const jsonCall = { ...call, arguments: { ...call.arguments, response_format: "json" } };
        add("json answer", (await answerAndRaw(server, connection.client, jsonCall, ca.certPem)).text);
        for (const other of others)
          add(other.form, (await answerAndRaw(server, connection.client, other, ca.certPem)).text);
        return { md, raw };
      };
      const { md, raw } = await forms(server.list, server.list.label);
      listShares.push(
        `${server.name} ${pct(md.bytes, raw.bytes)}${md.bytes <= raw.bytes * 0.25 ? "" : " (NOT met)"}`,
      );
      for (const record of server.records) await forms(record, record.label, record.exports);
    }

    const everything = await connectStdio({
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      env: {},
    });
    toolLists.push(["server-everything (reference)", (await everything.client.listTools()).tools]);
    await everything.close();

    print(
      ["server", "data", "form", "bytes", "tokens", "bytes vs raw", "tokens vs raw"],
      answers,
      [
        "Raw: the JSON bodies the remote sent for the requests the tool made (taken from the emulator's request log and",
        "fetched again with the same credential). Markdown and json: the tool's answers (response_format). Tokens:",
        "o200k_base (gpt-tokenizer). Goal: markdown list answer <= 25 % of the raw JSON (bytes):",
        `${listShares.join("; ")}.`,
        ...notes,
      ],
      3,
    );
    process.stdout.write("\n");
    print(
      ["server", "tools", "tools/list bytes", "tools/list tokens", "tokens per tool"],
      toolLists.map(([name, tools]) => {
        const s = size(JSON.stringify({ tools }));
        return [name, tools.length, s.bytes, s.tokens, Math.round(s.tokens / tools.length)];
      }),
      ["The tools array of tools/list as JSON (names, titles, descriptions, input schemas, annotations)."],
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  }
}

await main();
