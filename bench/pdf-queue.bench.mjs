// PDF queue: ten protocols_download_pdf calls asked at once (one client, the built protocols-mcp bin over
// stdio, signed in with a client token) under the repository's limit of 5 PDF downloads per minute.
// Goals: all succeed, the wall time stays within 5 % of the limit's minimum, and progress is reported
// throughout (every call hears progress at least every few seconds while it waits).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binPath, caFromEnv, connectStdio, print, ROOT, textOf, watchdog } from "./lib.mjs";

const DOWNLOADS = 10;
const PER_MINUTE = 5;
const WINDOW_S = 60;

async function main() {
  if (
    !existsSync(binPath("protocols-mcp")) ||
    !existsSync(join(ROOT, "packages", "emulators", "dist", "protocols", "index.js"))
  ) {
    process.stdout.write(
      "pdf-queue: skipped, needs protocols_mcp (packages/lab-mcp/dist/bin/protocols-mcp.js is not built yet).\n",
    );
    return;
  }
  watchdog("pdf-queue", 200_000);
  const { startProtocolsEmulator } = await import("../packages/emulators/dist/protocols/index.js");
  const emulator = await startProtocolsEmulator({ ca: caFromEnv() });
  const downloads = mkdtempSync(join(tmpdir(), "lab-mcp-bench-pdfs-"));
  let connection;
  try {
    const limits = emulator.admin.settings().rateLimits;
    if (limits.pdfSignedInPerMinute !== PER_MINUTE)
      throw new Error(`unexpected PDF limit ${JSON.stringify(limits)}`);
    connection = await connectStdio({
      bin: "protocols-mcp",
      env: {
        PROTOCOLS_BASE_URL: emulator.url,
        PROTOCOLS_ACCESS_TOKEN: emulator.demo.clientAccessToken,
        PROTOCOLS_DOWNLOAD_DIR: downloads,
      },
    });
    const { client } = connection;
    const found = JSON.parse(
      textOf(
        await client.callTool({
          name: "protocols_search",
          arguments: { limit: DOWNLOADS, response_format: "json" },
        }),
      ),
    );
    const items = found.protocols ?? found.items ?? Object.values(found).find(Array.isArray);
    const ids = items.map((p) => String(p.id)).slice(0, DOWNLOADS);
    if (ids.length !== DOWNLOADS) throw new Error(`found ${ids.length} protocols, expected ${DOWNLOADS}`);
    emulator.requests.clear();

    const started = performance.now();
    const results = await Promise.all(
      ids.map(async (protocol) => {
        const heard = [];
        const result = await client.callTool(
          { name: "protocols_download_pdf", arguments: { protocol, response_format: "json" } },
          undefined,
          {
            timeout: 90_000,
            resetTimeoutOnProgress: true,
            onprogress: (progress) => heard.push({ at: performance.now(), message: progress.message ?? "" }),
          },
        );
        const done = performance.now();
        const answer = JSON.parse(textOf(result));
        const pdf = readFileSync(answer.path);
        if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") throw new Error(`${answer.path} is not a PDF`);
        // The longest time without news: from the call, between notifications, to the answer.
        const times = [started, ...heard.map((h) => h.at), done];
        const silence = Math.max(...times.slice(1).map((t, i) => t - times[i]));
        return {
          protocol,
          seconds: (done - started) / 1000,
          notes: heard.length,
          silence: silence / 1000,
          pages: answer.pages,
        };
      }),
    );
    const wall = (performance.now() - started) / 1000;
    const pdfRequests = emulator.requests.entries().filter((e) => e.path.startsWith("/view/"));
    const refused = pdfRequests.length - DOWNLOADS;
    const minimum = (Math.ceil(DOWNLOADS / PER_MINUTE) - 1) * WINDOW_S;
    const longestSilence = Math.max(...results.map((r) => r.silence));
    results.sort((a, b) => a.seconds - b.seconds);
    print(
      ["download", "protocol", "answered after s", "progress notes", "longest silence s", "pages"],
      results.map((r, i) => [
        i + 1,
        r.protocol,
        r.seconds.toFixed(2),
        r.notes,
        r.silence.toFixed(2),
        r.pages ?? "?",
      ]),
      [],
    );
    print(
      ["measure", "value"],
      [
        ["downloads asked at once", DOWNLOADS],
        ["succeeded (a PDF file on disk)", results.length],
        ["PDF requests to the repository", pdfRequests.length],
        ["of them refused (429)", refused],
        ["wall time s", wall.toFixed(2)],
        ["the limit's minimum s", minimum.toFixed(2)],
        ["over the minimum", `${((100 * (wall - minimum)) / minimum).toFixed(1)} %`],
        ["longest silence of any call s", longestSilence.toFixed(2)],
      ],
      [
        `The repository allows ${PER_MINUTE} PDF downloads per minute per user in fixed windows; the second window opens`,
        `${WINDOW_S} s after the first download, so ${DOWNLOADS} downloads take at least ${minimum} s. One client over stdio asks all`,
        "ten at once (request timeout 90 s, reset on progress). Goals: all succeed",
        `(${results.length === DOWNLOADS ? "met" : "NOT met"}), wall within 5 % of the minimum (${wall <= minimum * 1.05 ? "met" : "NOT met"}), progress throughout`,
        `(longest silence ${longestSilence.toFixed(1)} s; ${longestSilence <= 10 ? "met" : "NOT met"} at <= 10 s).`,
      ],
    );
  } finally {
    await connection?.close();
    await emulator.close();
    rmSync(downloads, { recursive: true, force: true });
  }
}

await main();
