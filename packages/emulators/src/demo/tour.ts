// The scripted tour of `npm run demo`: a real MCP client (the SDK's Client over streamable HTTP) does
// what an agent would do with labdata_mcp and protocols_mcp, and prints what the agent would see.
import { writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";

/** Longest one call may take; progress notifications restart the clock. */
const CALL_TIMEOUT_MS = 30_000;
/** What is shown of one result. */
const MAX_LINES = 14;
const MAX_WIDTH = 108;

export interface TourEndpoints {
  labdata: string;
  protocols: string;
}

/** The steps, in order; each title is printed as the step's heading. */
export const TOUR_STEPS = [
  "List the tools of both servers",
  "Verify the credentials",
  "Search DNA sequences, first page",
  "The next page",
  "Read one sequence",
  "Jump to a far page (progress while it walks there)",
  "Export the sequence as GenBank",
  "Find last week's notebook entry on the Cas9 screen",
  "Read the entry",
  "The assay results of run 12",
  "The tasks assigned to me",
  "Ask the warehouse which NGS run edited best, in one SQL query",
  "Search protocols",
  "Read a protocol's steps",
  "Download the protocol as a PDF (progress while it waits)",
] as const;

type Out = (line: string) => void;

interface Session {
  name: string;
  client: Client;
  close(): Promise<void>;
}

async function connect(url: string): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "lab-mcp-demo", version: "0.1.0" }, { capabilities: {} });
  await client.connect(transport);
  const version = client.getServerVersion();
  return {
    name: version ? `${version.name} ${version.version}` : url,
    client,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** Shows a long text as a reader with little room would want it: first lines, each cut to a width. */
export function trimmed(text: string, maxLines = MAX_LINES): string[] {
  const lines = text.split("\n");
  const shown = lines
    .slice(0, maxLines)
    .map((line) => (line.length > MAX_WIDTH ? `${line.slice(0, MAX_WIDTH - 1)}…` : line));
  if (lines.length > maxLines) shown.push(`… (${lines.length - maxLines} more lines)`);
  return shown;
}

/** Where the client saves the files the servers hand it as resources (the PDF). */
export async function runTour(endpoints: TourEndpoints, out: Out, downloadDir: string): Promise<void> {
  let step = 0;
  const heading = () => {
    const title = TOUR_STEPS[step++];
    out("");
    out(`== ${step}. ${title}`);
  };

  /** Calls a tool as an agent would, prints the call and what came back; an error result ends the tour. */
  const call = async (
    session: Session,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<string> => {
    out(`> ${name} ${JSON.stringify(args)}`);
    let lastShown = -1;
    const onprogress = ({ progress, total, message }: Progress) => {
      const percent = total ? Math.round((progress / total) * 100) : undefined;
      // One line per tenth is enough to see it move.
      const tenth = percent === undefined ? progress : Math.floor(percent / 10);
      if (tenth === lastShown) return;
      lastShown = tenth;
      out(`  … progress${percent === undefined ? "" : ` ${percent}%`}${message ? `: ${message}` : ""}`);
    };
    const result = (await session.client.callTool({ name, arguments: args }, undefined, {
      onprogress,
      timeout: CALL_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
    const text = result.content.map(describeBlock).join("\n");
    const lines = text.split("\n");
    const shown = trimmed(text, options.lines);
    if (options.tail && lines.length > (options.lines ?? MAX_LINES))
      shown.push(...lines.slice(-options.tail));
    for (const line of shown) out(`  | ${line}`);
    if (result.isError) throw new Error(`${name} answered an error: ${text}`);
    await options.onResult?.(result);
    return text;
  };

  const tour: Tour = { out, heading, call };
  const labdata = await connect(endpoints.labdata);
  try {
    const protocols = await connect(endpoints.protocols);
    try {
      await listTools(tour, [labdata, protocols]);
      await labdataTour(tour, labdata);
      await protocolsTour(tour, protocols, downloadDir);
    } finally {
      await protocols.close();
    }
  } finally {
    await labdata.close();
  }
}

type CallOptions = { lines?: number; tail?: number; onResult?: (result: CallToolResult) => Promise<void> };

/** What the tour's steps use: the transcript, the next step's heading, and an agent's tool call. */
interface Tour {
  out: Out;
  heading: () => void;
  call: (
    session: Session,
    name: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ) => Promise<string>;
}

/** The first step: each server's tools, marking those that change data. */
async function listTools({ out, heading }: Tour, sessions: Session[]): Promise<void> {
  heading();
  for (const session of sessions) {
    const { tools } = await session.client.listTools();
    out(`${session.name}: ${tools.length} tools`);
    const width = Math.max(...tools.map((tool) => tool.name.length));
    for (const tool of tools) {
      const writes = tool.annotations?.readOnlyHint === false ? "  (changes data)" : "";
      out(`  ${tool.name.padEnd(width)}  ${tool.title ?? ""}${writes}`);
    }
  }
}

/** The lab data platform: who am I, sequences (paged, one, exported), then notebook, results and tasks. */
async function labdataTour({ heading, call }: Tour, labdata: Session): Promise<void> {
  heading();
  await call(labdata, "labdata_get_current_user", {});

  heading();
  const query = { name: "Cas9", limit: 5 };
  const first = await call(labdata, "labdata_list_entities", query);
  const id = matchOrFail(/\((seq_[A-Za-z0-9]+)\)/, first, "a sequence id in the first page");
  const nextOffset = matchOrFail(/offset=(\d+)/, first, "the next offset in the first page");

  heading();
  await call(labdata, "labdata_list_entities", { ...query, offset: Number(nextOffset) });

  heading();
  await call(labdata, "labdata_get_entity", { id }, { lines: 20 });

  heading();
  await call(labdata, "labdata_list_entities", { limit: 3, offset: 1500 });

  heading();
  await call(labdata, "labdata_export_dna_sequence", { id, format: "genbank" }, { lines: 12, tail: 2 });

  // The notebook, results and work: the demo lab's "last week" is 2025-06-23 to 2025-06-29.
  heading();
  const entries = await call(labdata, "labdata_list_entries", {
    name: "Cas9 screen",
    author: "me",
    modified: "2025-06-23..2025-06-29",
  });
  const entryId = matchOrFail(/\((etr_[A-Za-z0-9]+)\)/, entries, "an entry id in the list");

  heading();
  await call(labdata, "labdata_get_entry", { id: entryId }, { lines: 24 });

  heading();
  await call(labdata, "labdata_list_assay_results", { run: "12" }, { lines: 20 });

  heading();
  await call(labdata, "labdata_list_tasks", {}, { lines: 10 });

  // An analytic question: one query on the warehouse instead of paging every result by hand.
  heading();
  await call(
    labdata,
    "labdata_query_warehouse",
    {
      sql: [
        "SELECT r.run_number, count(*) AS results, round(avg(e.editing_efficiency)::numeric, 1) AS mean_efficiency",
        "FROM editing_efficiency e JOIN ngs_amplicon_run r ON r.id = e.assay_run",
        "GROUP BY r.run_number ORDER BY mean_efficiency DESC LIMIT 3",
      ].join("\n"),
    },
    { lines: 10 },
  );
}

/** The protocol repository: a search, a protocol's steps, and its PDF saved as a client would. */
async function protocolsTour(
  { out, heading, call }: Tour,
  protocols: Session,
  downloadDir: string,
): Promise<void> {
  heading();
  const found = await call(protocols, "protocols_search", { keyword: "western blot", limit: 3 });
  const protocolId = matchOrFail(/\*\*[^*]+ \((\d+)\)\*\*/, found, "a protocol id in the search results");

  heading();
  await call(
    protocols,
    "protocols_get_protocol",
    { part: "steps", protocol: protocolId, limit: 3 },
    { lines: 16 },
  );

  heading();
  await call(
    protocols,
    "protocols_download_pdf",
    { protocol: protocolId },
    { onResult: (result) => saveFile(protocols.client, result, downloadDir, out) },
  );
}

/** A content block as the agent's transcript shows it: text as is, a file by its URI. */
function describeBlock(block: CallToolResult["content"][number]): string {
  if (block.type === "text") return block.text;
  if (block.type === "resource_link") return `[file ${block.name}: ${block.uri}]`;
  if (block.type === "resource") return `[file ${block.resource.uri}, embedded]`;
  return `[${block.type}]`;
}

/**
 * What a client does with a file a tool links: saves it where its user wants it, from the embedded
 * copy or by reading the resource.
 */
async function saveFile(client: Client, result: CallToolResult, dir: string, out: Out): Promise<void> {
  const link = result.content.find((block) => block.type === "resource_link");
  if (!link) throw new Error("the download answered no file");
  const embedded = result.content.find((block) => block.type === "resource");
  let blob = embedded && "blob" in embedded.resource ? embedded.resource.blob : undefined;
  if (blob === undefined) {
    const [content] = (await client.readResource({ uri: link.uri })).contents;
    blob = content && "blob" in content ? content.blob : undefined;
  }
  if (blob === undefined) throw new Error(`the resource ${link.uri} holds no file`);
  const path = join(dir, basename(link.name));
  await writeFile(path, Buffer.from(blob, "base64"));
  out(`  (the client saves the PDF as ${path})`);
}

function matchOrFail(pattern: RegExp, text: string, what: string): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`the tour expected ${what}, and found none`);
  return match[1];
}
