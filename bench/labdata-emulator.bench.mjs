// Throughput of the lab data platform emulator for GET /api/v2/dna-sequences/{id} (the demo tenant,
// API key, rate limit lifted) over keep-alive HTTPS, with the example emulator's GET users/search
// measured the same way as the baseline. CONCURRENCY loops share one keep-alive agent and take
// request numbers from one counter until the round's count is reached; the two variants alternate
// rounds, so drift of the machine hits both alike. Emulators and client run in this one process.
import { Agent } from "node:https";
import { startExampleEmulator } from "../packages/emulators/dist/example/index.js";
import { startLabdataEmulator } from "../packages/emulators/dist/labdata/index.js";
import {
  basicAuth,
  caFromEnv,
  httpsGet,
  percentile,
  positiveInteger,
  print,
  sequenceIds,
  watchdog,
} from "./lib.mjs";

const REQUESTS = positiveInteger("BENCH_REQUESTS", 24_000);
const CONCURRENCY = positiveInteger("BENCH_CONCURRENCY", 32);
const ROUNDS = 3;
/** Unmeasured requests per variant first: JIT, TLS sessions, the sequence JSON cache. */
const WARMUP = 2_000;
/** Distinct sequences read, round-robin: a realistic spread, all in the cache after the warm-up. */
const DISTINCT_IDS = 500;
const WATCHDOG_MS = 170_000;

/** Runs `count` requests over CONCURRENCY loops; appends each latency (ms) to `samples`; returns seconds. */
async function burst(variant, count, samples) {
  let next = 0;
  const started = performance.now();
  const loop = async () => {
    while (next < count) {
      const i = next++;
      const sent = performance.now();
      const { status, body } = await httpsGet(variant.url(i), {
        agent: variant.agent,
        ca: variant.ca,
        headers: variant.headers,
      });
      if (status !== 200 || !variant.check(body)) {
        throw new Error(`${variant.name}: unexpected ${status} ${body.subarray(0, 200).toString()}`);
      }
      samples?.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return (performance.now() - started) / 1000;
}

const HEADER = ["variant", "requests", "seconds", "req/s", "p50 ms", "p99 ms", "req/s vs baseline"];

function tableRows(rows) {
  const baseline = rows.at(-1).rate;
  return rows.map((row) => [
    row.name,
    row.requests,
    row.seconds.toFixed(2),
    row.rate.toFixed(0),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
    `${(row.rate / baseline).toFixed(2)}x`,
  ]);
}

async function main() {
  watchdog("labdata-emulator", WATCHDOG_MS);

  const ca = caFromEnv();
  const labdata = await startLabdataEmulator({ ca });
  const example = await startExampleEmulator({ ca });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const demo = labdata.demo;
    const api = labdata.tenant("acme").apiUrl;
    labdata.admin.updateSettings("acme", { rateLimit: null });
    // Ids of the Plasmid Library sequences, first pages in the default order.
    const ids = await sequenceIds(
      api,
      demo.user.apiKey,
      demo.projects["Plasmid Library"],
      DISTINCT_IDS,
      ca.certPem,
    );
    if (ids.length !== DISTINCT_IDS)
      throw new Error(`listed ${ids.length} sequences, expected ${DISTINCT_IDS}`);
    const variants = [
      {
        name: "labdata GET dna-sequences/{id}",
        agent,
        ca: ca.certPem,
        url: (i) => `${api}/dna-sequences/${ids[i % ids.length]}`,
        headers: { authorization: basicAuth(demo.user.apiKey) },
        check: (body) => body.subarray(0, 11).toString() === '{"id":"seq_',
      },
      {
        name: "example GET users/search (baseline)",
        agent,
        ca: ca.certPem,
        url: () => `${example.url}/users/search?q=chen&limit=20`,
        headers: { authorization: `Bearer ${example.apiKey}` },
        check: (body) => body.subarray(0, 10).toString() === '{"users":[',
      },
    ];
    for (const variant of variants) await burst(variant, WARMUP);
    labdata.requests.clear();
    example.requests.clear();

    const results = variants.map(() => ({ samples: [], seconds: 0 }));
    const perRound = Math.ceil(REQUESTS / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < variants.length; k++) {
        const index = (round + k) % variants.length;
        results[index].seconds += await burst(variants[index], perRound, results[index].samples);
      }
    }
    const served = [labdata.requests.count(), example.requests.count()];
    if (served.some((n) => n !== perRound * ROUNDS))
      throw new Error(`served ${served}, expected ${perRound * ROUNDS} each`);

    const rows = variants.map((variant, i) => {
      const sorted = results[i].samples.sort((a, b) => a - b);
      const requests = sorted.length;
      return {
        name: variant.name,
        requests,
        seconds: results[i].seconds,
        rate: requests / results[i].seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
      };
    });
    const sample = await httpsGet(variants[0].url(0), {
      agent,
      ca: ca.certPem,
      headers: variants[0].headers,
    });
    const bytes = sample.body.length;
    print(HEADER, tableRows(rows), [
      `${CONCURRENCY} concurrent loops on one keep-alive agent, ${ROUNDS} alternating rounds of ${perRound} requests per`,
      `variant after ${WARMUP} warm-up requests each; emulators and client share this process (one core for both).`,
      `labdata: demo tenant acme, API key of the demo user, rate limit lifted, ${ids.length} distinct sequences`,
      `(a response is ~${Math.round(bytes / 1024)} KiB of JSON: bases, annotations, translations). Baseline: example`,
      "emulator, bearer key, q=chen&limit=20. Latency per request (performance.now), percentiles by nearest rank;",
      "every response checked (status 200 and body start), and each emulator served exactly the requests sent.",
    ]);
  } finally {
    agent.destroy();
    await Promise.all([labdata.close(), example.close()]);
  }
}

await main();
