// A fair share of one shared credential: one labdata-mcp process over streamable HTTP whose callers all
// act as the operator's API key (LABDATA_API_KEY), so that all their calls count in one rate budget
// (the emulator's 100 requests per fixed 10 s window). Two MCP sessions stand for two people (a session
// without a signed-in person is its own share, as each person is in team mode): "Mira" floods the server
// with BENCH_FLOOD calls at once; once the first window is spent, "Tom" makes BENCH_TOM_CALLS calls one
// after the other. Measured: how long each of Tom's calls took, against his call alone (no flood), and
// what the flood got (served, refused, rate).
// Goal: each of Tom's calls done within one window (10 s) and a margin of 1 s from when he asked.
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import { caFromEnv, connectHttp, positiveInteger, print, startHttpBin, textOf, watchdog } from "./lib.mjs";

const FLOOD = positiveInteger("BENCH_FLOOD", 500);
const TOM_CALLS = positiveInteger("BENCH_TOM_CALLS", 3);
const WINDOW_S = 10;
const PER_WINDOW = 100;
const BOUND_MS = WINDOW_S * 1000 + 1000;

const whoAmI = (client, timeout = 200_000) =>
  client.callTool({ name: "labdata_get_current_user", arguments: {} }, undefined, { timeout });

/** One call's time in ms, from asking to its answer (which must be the operator's user). */
async function timed(client, name) {
  const started = performance.now();
  const text = textOf(await whoAmI(client));
  if (!text.includes(name)) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  return performance.now() - started;
}

async function main() {
  watchdog("fair-share", 300_000);
  const ca = caFromEnv();
  const emulator = await startLabdataEmulator({ ca });
  let server;
  const sessions = [];
  try {
    const { demo } = emulator;
    const settings = emulator.admin.getSettings(demo.tenant).rateLimit;
    if (settings?.requests !== PER_WINDOW || settings.windowMs !== WINDOW_S * 1000)
      throw new Error(`unexpected emulator limit ${JSON.stringify(settings)}`);
    server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_API_KEY: demo.user.apiKey,
      MCP_LOG_CALLS: "false",
    });
    const mira = await connectHttp(server.url);
    const tom = await connectHttp(server.url);
    sessions.push(mira, tom);
    const served = () => emulator.admin.auditLog(demo.tenant).length;

    // Tom's call alone: also lets the server learn the platform's limit from its headers.
    const alone = await timed(tom.client, demo.user.name);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000 + 500));
    const before = served();
    const started = performance.now();
    let refused = 0;
    let answered = 0;
    const flood = Array.from({ length: FLOOD }, () =>
      whoAmI(mira.client).then((result) => {
        const text = textOf(result, true);
        if (text.startsWith("Error: Rate limit exceeded")) refused++;
        else answered++;
        return performance.now();
      }),
    );
    while (served() - before < PER_WINDOW) await new Promise((resolve) => setTimeout(resolve, 10));
    const asked = ((performance.now() - started) / 1000).toFixed(2);
    const tomWaits = [];
    for (let i = 0; i < TOM_CALLS; i++) tomWaits.push(await timed(tom.client, demo.user.name));
    const ends = await Promise.all(flood);
    const floodWall = (Math.max(...ends) - started) / 1000;
    const floodServed = served() - before - TOM_CALLS;
    const worst = Math.max(...tomWaits);
    print(
      ["measure", "value"],
      [
        ["Tom's call alone ms", alone.toFixed(0)],
        [`Mira's calls at once`, FLOOD],
        ["Tom asked at s (first window spent)", asked],
        ...tomWaits.map((ms, i) => [`Tom's call ${i + 1} under the flood s`, (ms / 1000).toFixed(2)]),
        ["Mira's calls answered", answered],
        ["Mira's calls refused (rate-limit text)", refused],
        ["Mira's flood wall s (last answer)", floodWall.toFixed(2)],
        ["requests served to the flood", floodServed],
      ],
      [
        `One labdata-mcp process, the operator's API key for every caller; the emulator allows ${PER_WINDOW} requests`,
        `per fixed ${WINDOW_S} s window. Mira's session asks ${FLOOD} labdata_get_current_user at once (one request`,
        `each); once the emulator has served the first ${PER_WINDOW}, Tom's session asks ${TOM_CALLS} times, one after`,
        "the other. Goal: each of Tom's calls within one window and 1 s " +
          `(${(BOUND_MS / 1000).toFixed(0)} s): ${worst <= BOUND_MS ? "met" : "NOT met"} (longest ${(worst / 1000).toFixed(2)} s).`,
      ],
    );
  } finally {
    for (const session of sessions) await session.close().catch(() => undefined);
    await server?.stop();
    await emulator.close();
  }
}

await main();
