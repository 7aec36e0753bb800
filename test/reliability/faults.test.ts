// Faults: the emulators' fault injection against every server. Each call ends with the exact text of
// the conventions, or succeeds after a retry; none hangs (every call has a client-side deadline, far
// above what any of these faults should take); and the server goes on serving.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Fault } from "../../packages/emulators/src/common/faults.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { type RunningTarget, TARGETS } from "./targets.js";

/** Far above the longest wait any fault here causes (3 retries after Retry-After: 1 s); a hang fails. */
const DEADLINE_MS = 15_000;

const TEXTS = {
  401: "Error: Invalid API authentication",
  403: "Error: Permission denied. You don't have access to this resource.",
  404: "Error: Resource not found. Please check the ID is correct.",
  429: "Error: Rate limit exceeded. Please wait before making more requests.",
  timeout: "Error: Request timed out. Please try again.",
  connection: "Error: Unexpected error occurred: ConnectionError",
  invalidResponse: "Error: Unexpected error occurred: InvalidResponseError",
  status: (status: number) => `Error: API request failed with status ${status}`,
};

const STATUS_CASES: Array<[number, string]> = [
  [500, TEXTS.status(500)],
  [502, TEXTS.status(502)],
  [503, TEXTS.status(503)],
  [504, TEXTS.status(504)],
  [400, TEXTS.status(400)],
  [401, TEXTS[401]],
  [403, TEXTS[403]],
  [404, TEXTS[404]],
];

const BODY_CASES: Array<[string, Fault, string]> = [
  ["a dropped connection", { kind: "drop" }, TEXTS.connection],
  ["a body cut short", { kind: "truncated" }, TEXTS.connection],
  ["a body that is not JSON", { kind: "malformed" }, TEXTS.invalidResponse],
  [
    // A list where a record is expected: every field of a lab data platform record is optional in its
    // OpenAPI document, so an object of unknown fields is a valid (empty) record there.
    "a JSON body of the wrong shape",
    { kind: "status", status: 200, body: '["unexpected"]' },
    TEXTS.invalidResponse,
  ],
  ["an empty 200", { kind: "status", status: 200, body: "" }, TEXTS.invalidResponse],
];

const rateLimited = (times: number, retryAfter = "0"): [Fault, number] => [
  { kind: "status", status: 429, headers: { "retry-after": retryAfter } },
  times,
];

describe.each(TARGETS)("$serverName", (target) => {
  let running: RunningTarget;
  let conn: Connected;
  beforeAll(async () => {
    running = await target.start();
    running.liftRateLimit();
    conn = await connectInMemory(target.definition, running.env);
  });
  afterAll(async () => {
    await conn?.close();
    await running?.close();
  });
  beforeEach(() => {
    running.clearFaults();
    running.clearRemoteRequests();
  });

  const probe = async (client: Client = conn.client) =>
    textOf(
      await client.callTool({ name: running.probe.name, arguments: running.probe.arguments }, undefined, {
        timeout: DEADLINE_MS,
      }),
    );
  const expectServing = async (client?: Client) => {
    const { text, isError } = await probe(client);
    expect(isError, text).toBe(false);
    expect(text.startsWith(running.probe.answerStartsWith), text.slice(0, 200)).toBe(true);
  };

  it.each(STATUS_CASES)("remote %i: the exact text, then serving again", async (status, expected) => {
    running.injectFault({ kind: "status", status });
    expect(await probe()).toEqual({ text: expected, isError: true });
    await expectServing();
  });

  it.each(BODY_CASES)("%s: the exact text, then serving again", async (_name, fault, expected) => {
    // A dropped connection twice: a request that got no answer is sent once more.
    running.injectFault(fault, fault.kind === "drop" ? 2 : 1);
    expect(await probe()).toEqual({ text: expected, isError: true });
    await expectServing();
  });

  it("a delay past the timeout (MCP_REQUEST_TIMEOUT=1): the timeout text, for every call of a burst", async () => {
    const slow = await connectInMemory(target.definition, { ...running.env, MCP_REQUEST_TIMEOUT: "1" });
    try {
      await expectServing(slow.client); // whatever sign-in the credential needs happens before the fault
      running.injectFault({ kind: "delay", ms: 4_000 }, 4);
      const results = await Promise.all(Array.from({ length: 4 }, () => probe(slow.client)));
      for (const result of results) expect(result).toEqual({ text: TEXTS.timeout, isError: true });
      await expectServing(slow.client);
    } finally {
      await slow.close();
    }
  });

  it("a delay under the timeout: just slower", async () => {
    running.injectFault({ kind: "delay", ms: 300 }, 2);
    await expectServing();
  });

  it("a 429 storm shorter than the retries: succeeds after retrying", async () => {
    // What the probe costs without faults (a protocol whose steps come from their own endpoint costs 2).
    running.clearRemoteRequests();
    await expectServing();
    const cleanCost = running.remoteRequests();
    const [fault, times] = rateLimited(2);
    running.injectFault(fault, times);
    running.clearRemoteRequests();
    await expectServing();
    expect(running.remoteRequests()).toBe(times + cleanCost);
  });

  it("a 429 storm longer than the retries: the rate-limit text after the first try and 3 retries", async () => {
    const [fault, times] = rateLimited(20);
    running.injectFault(fault, times);
    expect(await probe()).toEqual({ text: TEXTS[429], isError: true });
    expect(running.remoteRequests()).toBe(4);
    running.clearFaults();
    await expectServing();
  });

  it("a 429 storm with Retry-After under 8 concurrent calls: each succeeds or says rate limit, none hangs", async () => {
    const [fault, times] = rateLimited(12, "1");
    running.injectFault(fault, times);
    const results = await Promise.all(Array.from({ length: 8 }, () => probe()));
    for (const { text, isError } of results) {
      if (isError) expect(text).toBe(TEXTS[429]);
      else expect(text.startsWith(running.probe.answerStartsWith)).toBe(true);
    }
    expect(results.some((r) => !r.isError)).toBe(true);
    await expectServing();
  });

  it("every kind of fault mixed into a burst of 24 concurrent calls: a success or an exact text each", async () => {
    const faults: Fault[] = [
      { kind: "status", status: 500 },
      { kind: "status", status: 503 },
      { kind: "drop" },
      { kind: "truncated" },
      { kind: "malformed" },
      { kind: "status", status: 429, headers: { "retry-after": "0" } },
      { kind: "delay", ms: 200 },
      { kind: "status", status: 502 },
    ];
    for (const fault of [...faults, ...faults]) running.injectFault(fault);
    const allowed = new Set([
      TEXTS.status(500),
      TEXTS.status(502),
      TEXTS.status(503),
      TEXTS.connection,
      TEXTS.invalidResponse,
      TEXTS[429],
    ]);
    const results = await Promise.all(Array.from({ length: 24 }, () => probe()));
    for (const { text, isError } of results) {
      if (isError) expect(allowed.has(text), text).toBe(true);
      else expect(text.startsWith(running.probe.answerStartsWith), text.slice(0, 200)).toBe(true);
    }
    await expectServing();
  });

  it("credentials expiring in the middle of a burst: every call succeeds after one renewal", async (ctx) => {
    const expiring = running.expireTokens;
    if (!expiring) {
      ctx.skip();
      return;
    }
    const app = await connectInMemory(target.definition, expiring.env);
    try {
      await expectServing(app.client);
      const before = expiring.tokenRequests();
      const calls = 40;
      let done = 0;
      let next = 0;
      const results: Array<{ text: string; isError: boolean }> = [];
      const worker = async () => {
        while (next < calls) {
          next++;
          results.push(await probe(app.client));
          // The platform's clock jumps past the token's expiry while other calls are in flight.
          if (++done === calls / 4) expiring.expire();
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      expect(results).toHaveLength(calls);
      for (const { text, isError } of results) {
        expect(isError, text).toBe(false);
        expect(text.startsWith(running.probe.answerStartsWith), text.slice(0, 200)).toBe(true);
      }
      expect(expiring.tokenRequests() - before).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });
});
