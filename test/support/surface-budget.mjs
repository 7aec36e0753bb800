// What the servers' tools/list may cost, in one place: held by test/conventions/surface-size.test.ts
// and stated by the benches (bench/context-cost.bench.mjs, bench/lab-questions.bench.mjs). A budget, not
// today's count. Per server, by default (every read, no write): sentry-mcp's rule of at most 25 tools.
// Both defaults together (labdata_mcp and protocols_mcp, installed side by side): 10,000 o200k tokens of
// tools/list (the JSON of the tools array). With the writes too (every toolset): at most 30 tools a
// server and 15,000 tokens for both. A tool at most 520 tokens: a list of the platform's records takes
// its filters (created, creator) and a json selection (fields) beside its paging, and
// labdata_list_entities is one tool for five lists (450 held before those filters). A .mjs file so that
// the benches read it on plain Node.
export const SURFACE_BUDGET = Object.freeze({
  toolsPerServer: 25,
  bothDefaultsTokens: 10_000,
  toolTokens: 520,
  toolsPerServerWithWrites: 30,
  bothAllTokens: 15_000,
});
