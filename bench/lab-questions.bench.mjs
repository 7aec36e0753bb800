// A lab's questions on the default surfaces (issue 38): for each question of test/support/lab-questions.mjs,
// the scripted tool path an agent takes, run by an MCP client against labdata-mcp and protocols-mcp as
// the packed product runs them (their bins over stdio, no MCP_TOOLSETS: every read, no write; only the
// credential, the warehouse's address and the PDF folder set), on the emulators' demo data. Each path is
// its own conversation: a fresh server process. Counted per path: tool calls; remote requests (served by
// the emulators, from their request logs; SQL statements are the labdata_query_warehouse calls); o200k
// tokens of what the agent reads (the tool results' content as the client receives it) and of the
// arguments it writes; and whether the answer holds what the seed says it must. Beside it, each server's
// default tools/list (tools, tokens) against the surface budget. A path that needs inputs the surface
// does not list yet is shown as "no path" with what it needs; a path that fails is shown as failed and
// fails the benchmark.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { startProtocolsEmulator } from "../packages/emulators/dist/protocols/index.js";
import { LAB_QUESTIONS, labSeed, missingFromAnswer, missingInputs } from "../test/support/lab-questions.mjs";
import { SURFACE_BUDGET } from "../test/support/surface-budget.mjs";
import { basicAuth, caFromEnv, connectStdio, httpsGet, print, watchdog } from "./lib.mjs";

const BINS = { labdata: "labdata-mcp", protocols: "protocols-mcp" };

/** What the agent reads of a result: its text blocks, and any other block (a file's link) as JSON. */
function readOf(result) {
  return (result.content ?? [])
    .map((block) => (block.type === "text" ? block.text : JSON.stringify(block)))
    .join("\n");
}

/** One path in a fresh server: its tally, its answer, or why it failed. */
async function runPath(server, env, emulators, path, seed) {
  const tally = { calls: 0, api: 0, sql: 0, read: 0, written: 0 };
  const served = () => emulators.reduce((sum, emulator) => sum + emulator.requests.count(), 0);
  // From before the server starts: whatever it asks the remote at start counts too.
  const before = served();
  const connection = await connectStdio({ bin: BINS[server], env });
  const agent = {
    async call(name, args = {}) {
      const result = await connection.client.callTool({ name, arguments: args });
      tally.calls++;
      tally.api = served() - before;
      if (name === "labdata_query_warehouse") tally.sql++;
      const read = readOf(result);
      tally.read += countTokens(read);
      tally.written += countTokens(JSON.stringify(args));
      const text = (result.content ?? []).find((block) => block.type === "text")?.text ?? "";
      if (result.isError) throw new Error(`${name}: ${text}`);
      return { text, data: result.structuredContent };
    },
  };
  try {
    const answer = await path.run(agent, seed);
    const missing = missingFromAnswer(path, seed, answer);
    const error = missing.length ? `answer lacks ${missing.map((m) => `"${m}"`).join(", ")}` : "";
    return { tally, answer, error };
  } catch (error) {
    return {
      tally,
      answer: "",
      error: error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error),
    };
  } finally {
    await connection.close();
  }
}

async function main() {
  watchdog("lab-questions", 540_000);
  const ca = caFromEnv();
  const labdata = await startLabdataEmulator({ ca, warehouse: { tenants: ["acme"] } });
  const protocols = await startProtocolsEmulator({ ca });
  const downloads = mkdtempSync(join(tmpdir(), "lab-mcp-bench-pdfs-"));
  try {
    const { demo } = labdata;
    const warehouse = await labdata.warehouse(demo.tenant);
    // The REST paging path reads 2,000 records in a row; the platform's request limit is measured by the
    // rate-limit bench, not here, where it would only make the paths after it wait.
    labdata.admin.updateSettings(demo.tenant, { rateLimit: null });
    const api = labdata.tenant(demo.tenant).apiUrl;
    const seed = await labSeed({
      labdataDemo: demo,
      protocolsEmulator: protocols,
      getJson: async (path) => {
        const { status, body } = await httpsGet(`${api}${path}`, {
          ca: ca.certPem,
          headers: { authorization: basicAuth(demo.user.apiKey) },
        });
        if (status !== 200) throw new Error(`GET ${path}: ${status} ${body.toString().slice(0, 200)}`);
        return JSON.parse(body.toString());
      },
    });
    // The settings the sandbox gives the servers (packages/emulators/src/sandbox/servers.ts), and where
    // protocols_mcp saves PDFs; no MCP_TOOLSETS.
    const env = {
      labdata: {
        LABDATA_BASE_URL: demo.baseUrl,
        LABDATA_API_KEY: demo.user.apiKey,
        LABDATA_WAREHOUSE_URL: warehouse.url,
      },
      protocols: {
        PROTOCOLS_BASE_URL: protocols.url,
        PROTOCOLS_ACCESS_TOKEN: protocols.demo.clientAccessToken,
        PROTOCOLS_DOWNLOAD_DIR: downloads,
      },
    };

    const surfaces = {};
    for (const server of ["labdata", "protocols"]) {
      const connection = await connectStdio({ bin: BINS[server], env: env[server] });
      const { tools } = await connection.client.listTools();
      await connection.close();
      surfaces[server] = { tools, tokens: countTokens(JSON.stringify(tools)) };
    }

    const rows = [];
    const failed = [];
    /** Why each path without a way today has none: the table's notes, numbered. */
    const noPath = [];
    const note = (question, path, why) => {
      noPath.push(`[${noPath.length + 1}] ${question.id}, ${path.name}: needs ${why}`);
      return `no path [${noPath.length}]`;
    };
    for (const question of LAB_QUESTIONS) {
      for (const path of question.paths) {
        const label = [question.question, path.name];
        const missing = missingInputs(path, surfaces[question.server].tools);
        if (missing.length > 0) {
          rows.push([
            ...label,
            "-",
            "-",
            "-",
            "-",
            note(question, path, `${path.needs?.what} (${missing.join(", ")})`),
          ]);
          continue;
        }
        const { tally, answer, error } = await runPath(
          question.server,
          env[question.server],
          [labdata, protocols],
          path,
          seed,
        );
        // A short answer (a count, step numbers) is shown; a longer one is the tool's text.
        let outcome =
          answer && answer.length <= 24 && !answer.includes("\n") ? `answered: ${answer}` : "answered";
        if (error && path.needs) {
          outcome = note(question, path, `${path.needs.what}; today: ${error}`);
        } else if (error) {
          outcome = `FAILED [${noPath.length + failed.length + 1}]`;
          failed.push(`${outcome.slice(7)} ${question.id}, ${path.name}: ${error}`);
        }
        rows.push([
          ...label,
          tally.calls,
          `${tally.api} API${tally.sql ? ` + ${tally.sql} SQL` : ""}`,
          tally.read.toLocaleString("en"),
          tally.written.toLocaleString("en"),
          outcome,
        ]);
      }
    }
    print(
      ["question", "path", "tool calls", "remote requests", "tokens read", "tokens written", "answer"],
      rows,
      [
        "labdata-mcp (as Mira Patel, API key) and protocols-mcp (Ada Okafor's client token) over stdio with",
        "their default surface, a fresh process for each path (its own conversation), on the emulators' demo",
        "data; the lab data platform's warehouse a real PostgreSQL, its request limit off. Remote requests:",
        "served by the emulators (a warehouse path's first query also mints the login: one POST); SQL:",
        "labdata_query_warehouse calls. Tokens (o200k): read, the results' content as the client receives it",
        "(text; a file's link as JSON); written, the arguments. Answered: the answer holds what the emulators'",
        "seed says (test/support/lab-questions.mjs).",
        `${failed.length} failed; ${noPath.length} with no path on today's default surface:`,
        ...noPath,
        ...failed,
      ],
      2,
    );
    process.stdout.write("\n");
    const listRows = Object.entries(surfaces).map(([server, surface]) => [
      `${server}_mcp`,
      surface.tools.length,
      surface.tokens.toLocaleString("en"),
    ]);
    const bothTokens = surfaces.labdata.tokens + surfaces.protocols.tokens;
    listRows.push([
      "both defaults",
      surfaces.labdata.tools.length + surfaces.protocols.tools.length,
      bothTokens.toLocaleString("en"),
    ]);
    const perServerMet = Object.values(surfaces).every(
      (surface) => surface.tools.length <= SURFACE_BUDGET.toolsPerServer,
    );
    const tokensMet = bothTokens <= SURFACE_BUDGET.bothDefaultsTokens;
    print(["default surface", "tools", "tools/list tokens"], listRows, [
      "What every conversation pays before its first question: the tools array of tools/list as JSON, o200k",
      `(the count test/conventions/surface-size.test.ts makes). Budget (test/support/surface-budget.mjs): <= ${SURFACE_BUDGET.toolsPerServer}`,
      `tools a server: ${perServerMet ? "met" : "NOT met"}; <= ${SURFACE_BUDGET.bothDefaultsTokens.toLocaleString("en")} tokens both together: ${tokensMet ? "met" : "NOT met"}.`,
    ]);
    if (failed.length > 0) {
      process.stderr.write(`${failed.length} paths failed (see the table's notes)\n`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(downloads, { recursive: true, force: true });
    await protocols.close();
    await labdata.close();
  }
}

await main();
