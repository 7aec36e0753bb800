// Throughput of the lab data platform emulator for GET /api/v2/dna-sequences/{id} (the demo tenant,
// API key, rate limit lifted) over keep-alive HTTPS, with the example emulator's GET users/search
// measured the same way as the baseline. CONCURRENCY loops share one keep-alive agent and take
// request numbers from one counter until the round's count is reached; the two variants alternate
// rounds, so drift of the machine hits both alike. Emulators and client run in this one process.
import { Agent, request } from "node:https";
import { startExampleEmulator } from "../dist/emulators/example/index.js";
import { startLabdataEmulator } from "../dist/emulators/labdata/index.js";

const REQUESTS = positiveInteger("BENCH_REQUESTS", 24_000);
const CONCURRENCY = positiveInteger("BENCH_CONCURRENCY", 32);
const ROUNDS = 3;
/** Unmeasured requests per variant first: JIT, TLS sessions, the sequence JSON cache. */
const WARMUP = 2_000;
/** Distinct sequences read, round-robin: a realistic spread, all in the cache after the warm-up. */
const DISTINCT_IDS = 500;
const WATCHDOG_MS = 170_000;

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  return Number(raw);
}

function caFromEnv() {
  const certPem = process.env.BENCH_CA_CERT;
  const keyPem = process.env.BENCH_CA_KEY;
  if (!certPem || !keyPem || !process.env.NODE_EXTRA_CA_CERTS) {
    throw new Error(
      "BENCH_CA_CERT, BENCH_CA_KEY and NODE_EXTRA_CA_CERTS must be set: run through bench/run.mjs",
    );
  }
  return { certPem, keyPem };
}

/** One GET; resolves to the status and body, rejects on a network error. */
function get(agent, ca, url, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, ca, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Runs `count` requests over CONCURRENCY loops; appends each latency (ms) to `samples`; returns seconds. */
async function burst(variant, count, samples) {
  let next = 0;
  const started = performance.now();
  const loop = async () => {
    while (next < count) {
      const i = next++;
      const sent = performance.now();
      const { status, body } = await get(variant.agent, variant.ca, variant.url(i), variant.headers);
      if (status !== 200 || !variant.check(body)) {
        throw new Error(`${variant.name}: unexpected ${status} ${body.subarray(0, 200).toString()}`);
      }
      samples?.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return (performance.now() - started) / 1000;
}

/** Nearest-rank percentile of ascending samples. */
function percentile(sorted, p) {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function table(rows) {
  const baseline = rows.at(-1).rate;
  const header = ["variant", "requests", "seconds", "req/s", "p50 ms", "p99 ms", "req/s vs baseline"];
  const body = rows.map((row) => [
    row.name,
    String(row.requests),
    row.seconds.toFixed(2),
    row.rate.toFixed(0),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
    `${(row.rate / baseline).toFixed(2)}x`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => cells[column].length)),
  );
  const line = (cells) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(" | ")} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `:${"-".repeat(width + 1)}` : `${"-".repeat(width + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}

async function main() {
  const watchdog = setTimeout(() => {
    process.stderr.write(`labdata-emulator did not finish within ${WATCHDOG_MS / 1000} s\n`);
    process.exit(1);
  }, WATCHDOG_MS);
  watchdog.unref();

  const ca = caFromEnv();
  const labdata = await startLabdataEmulator({ ca });
  const example = await startExampleEmulator({ ca });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const demo = labdata.demo;
    const api = labdata.tenant("acme").apiUrl;
    labdata.admin.updateSettings("acme", { rateLimit: null });
    const ids = await listIds(agent, ca.certPem, api, demo.user.apiKey, demo.projects["Plasmid Library"]);
    if (ids.length !== DISTINCT_IDS)
      throw new Error(`listed ${ids.length} sequences, expected ${DISTINCT_IDS}`);
    const variants = [
      {
        name: "labdata GET dna-sequences/{id}",
        agent,
        ca: ca.certPem,
        url: (i) => `${api}/dna-sequences/${ids[i % ids.length]}`,
        headers: { authorization: `Basic ${Buffer.from(`${demo.user.apiKey}:`).toString("base64")}` },
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
    process.stdout.write(`${table(rows)}\n\n`);
    const bytes = (await get(agent, ca.certPem, variants[0].url(0), variants[0].headers)).body.length;
    process.stdout.write(
      [
        `${CONCURRENCY} concurrent loops on one keep-alive agent, ${ROUNDS} alternating rounds of ${perRound} requests per`,
        `variant after ${WARMUP} warm-up requests each; emulators and client share this process (one core for both).`,
        `labdata: demo tenant acme, API key of the demo user, rate limit lifted, ${ids.length} distinct sequences`,
        `(a response is ~${Math.round(bytes / 1024)} KiB of JSON: bases, annotations, translations). Baseline: example`,
        "emulator, bearer key, q=chen&limit=20. Latency per request (performance.now), percentiles by nearest rank;",
        "every response checked (status 200 and body start), and each emulator served exactly the requests sent.",
        "",
      ].join("\n"),
    );
  } finally {
    agent.destroy();
    await Promise.all([labdata.close(), example.close()]);
  }
}

/** Ids of the Plasmid Library sequences, first pages in the default order. */
async function listIds(agent, ca, api, apiKey, projectId) {
  const headers = { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` };
  const ids = [];
  let nextToken = "";
  for (let page = 0; page < DISTINCT_IDS / 100; page++) {
    const query = `projectId=${projectId}&pageSize=100${nextToken ? `&nextToken=${encodeURIComponent(nextToken)}` : ""}`;
    const { status, body } = await get(agent, ca, `${api}/dna-sequences?${query}`, headers);
    if (status !== 200) throw new Error(`listing failed: ${status} ${body.toString().slice(0, 200)}`);
    const parsed = JSON.parse(body.toString());
    ids.push(...parsed.dnaSequences.map((s) => s.id));
    nextToken = parsed.nextToken;
    if (!nextToken) break;
  }
  return ids;
}

await main();
