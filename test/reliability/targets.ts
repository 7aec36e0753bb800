// The tool servers the reliability suites run against: every entry of ALL_SERVICES, each with a starter
// for its emulator (demo data, valid credentials) and what the suites need to know of it. A service
// added to ALL_SERVICES without a starter here fails the suites, naming what to add.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Fault } from "../../packages/emulators/src/common/faults.js";
import { startExampleEmulator } from "../../packages/emulators/src/example/index.js";
import { startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { startProtocolsEmulator } from "../../packages/emulators/src/protocols/index.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { testCa } from "../support/emulator.js";
import { ALL_SERVICES } from "../support/services.js";

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A set of credentials to run every tool with, and the secret strings it holds (never to be shown). */
export interface CredentialCase {
  label: string;
  env: Record<string, string>;
  canaries: string[];
  /** Whether the remote accepts these credentials (tools succeed) or refuses them (401 texts). */
  valid: boolean;
}

export interface RunningTarget {
  /** Settings that make the server work against the emulator (valid credentials). */
  env: Record<string, string>;
  /** Requests that reached the remote API (its request log; admin requests are not counted). */
  remoteRequests(): number;
  clearRemoteRequests(): void;
  /** Arms `fault` for the next `times` API requests (default 1). */
  injectFault(fault: Fault, times?: number): void;
  clearFaults(): void;
  /** A call that works, and what its answer starts with. */
  probe: ToolCall & { answerStartsWith: string };
  /** Realistic arguments for every tool (ids that exist), for calls that should succeed. */
  sampleArgs: Record<string, Record<string, unknown>>;
  /** Credentials to prove the secrets rules with; each secret is a fresh random string (a canary). */
  credentialCases(): Promise<CredentialCase[]>;
  /**
   * Makes the credentials in `env` stop working in the middle of a burst (e.g. moves the emulator
   * clock past an OAuth token's expiry), for servers that renew them; absent otherwise.
   */
  expireTokens?: { env: Record<string, string>; expire(): void; tokenRequests(): number };
  /** Secrets the test cannot know in advance (e.g. access tokens the remote issues), by their shape. */
  secretPatterns?: RegExp[];
  /**
   * For a server that asks the user for a key when none is configured: settings without one, the key
   * the user will type (valid, a canary), and where the server is told to remember it.
   */
  askedKey?: { env: Record<string, string>; key: string; rememberedIn: string };
  /**
   * Lifts the remote's rate limit far out of reach, so that the server's own limiter (which follows
   * the remote's rate headers) no longer holds calls back. False when the server keeps a fixed limit.
   */
  liftRateLimit(): boolean;
  /** Read-only calls with answers that do not change while nothing writes, for load runs. */
  steadyCalls: ToolCall[];
  close(): Promise<void>;
}

export interface Target {
  serverName: string;
  definition: ServiceDefinition<unknown>;
  /** The built bin's name under dist/bin. */
  bin: string;
  start(): Promise<RunningTarget>;
}

/** A distinctive random string: if it ever shows up somewhere, it came from where it was put. */
export function canary(label: string): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  return `canary${label}${random}`;
}

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), "lab-mcp-reliability-")), name);

async function startExampleTarget(): Promise<RunningTarget> {
  const { certPem, keyPem } = testCa();
  // The emulator's key is itself a canary: a valid credential that must never be shown.
  const apiKey = canary("ExampleKey");
  const emulator = await startExampleEmulator({ ca: { certPem, keyPem }, apiKey });
  const env = { EXAMPLE_BASE_URL: emulator.url, EXAMPLE_API_KEY: apiKey };
  return {
    env,
    remoteRequests: () => emulator.requests.count(),
    clearRemoteRequests: () => emulator.requests.clear(),
    injectFault: (fault, times = 1) => emulator.faults.inject(fault, { path: "/api/", times }),
    clearFaults: () => emulator.faults.clear(),
    probe: {
      name: "example_search_users",
      arguments: { query: "chen" },
      answerStartsWith: "# User Search Results: 'chen'",
    },
    sampleArgs: { example_search_users: { query: "chen", limit: 5 } },
    async credentialCases() {
      const refused = canary("RefusedKey");
      return [
        { label: "API key (valid)", env, canaries: [apiKey], valid: true },
        {
          label: "API key (refused)",
          env: { ...env, EXAMPLE_API_KEY: refused },
          canaries: [refused],
          valid: false,
        },
      ];
    },
    liftRateLimit() {
      // The example remote states no limit; its server keeps 100 requests / 10 s on its side.
      return false;
    },
    steadyCalls: ["chen", "li", "an", "son", "ra"].flatMap((query) => [
      { name: "example_search_users", arguments: { query } },
      { name: "example_search_users", arguments: { query, limit: 3, offset: 1, response_format: "json" } },
    ]),
    close: () => emulator.close(),
  };
}

async function startLabdataTarget(): Promise<RunningTarget> {
  const emulator = await startLabdataEmulator({ ca: testCa() });
  const demo = emulator.demo;
  if (!demo) throw new Error("the lab data emulator started without demo data");
  const audience = "lab-mcp-reliability";
  const idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  emulator.admin.updateSettings(demo.tenant, {
    oidc: { configurationUrl: idp.configurationUrl, audience },
  });
  const sequenceIds = await listSequenceIds(demo.baseUrl, demo.user.apiKey, 40);
  emulator.requests.clear();
  const base = {
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: demo.baseUrl,
    LABDATA_CREDENTIALS_FILE: tempFile("labdata.json"),
  };
  const env = { ...base, LABDATA_API_KEY: demo.user.apiKey };
  const appEnv = {
    ...base,
    LABDATA_CLIENT_ID: demo.app.clientId,
    LABDATA_CLIENT_SECRET: demo.app.clientSecret,
  };
  const sequenceId = sequenceIds[0] as string;
  const count = (suffix: string) => emulator.requests.entries().filter((e) => e.path.endsWith(suffix)).length;
  return {
    env,
    remoteRequests: () => emulator.requests.count(),
    clearRemoteRequests: () => emulator.requests.clear(),
    injectFault: (fault, times = 1) =>
      emulator.faults.inject(fault, { path: `/${demo.tenant}/api/v2/`, times }),
    clearFaults: () => emulator.faults.clear(),
    // One request per call (labdata_get_entity tries the next entity type after a 400).
    probe: {
      name: "labdata_get_current_user",
      arguments: {},
      answerStartsWith: "# ",
    },
    sampleArgs: {
      labdata_get_current_user: {},
      labdata_sign_out: {},
      labdata_list_entities: { project_id: demo.projects["Plasmid Library"], limit: 5 },
      labdata_export_dna_sequence: { id: sequenceIds[1], format: "genbank" },
      labdata_list_projects: { limit: 5 },
      labdata_list_folders: { project_id: demo.projects["Plasmid Library"], limit: 5 },
      labdata_create_dna_sequence: {
        name: "reliability-canary-check",
        bases: "ATGCATGCATGCATGCATGC",
        folder_id: demo.folders.Backbones,
        annotations: [{ name: "site", type: "misc_feature", start: 1, end: 8 }],
      },
      labdata_list_entries: { limit: 5 },
      labdata_get_entry: { id: demo.notebook.cas9ScreenEntryId },
      labdata_list_entry_templates: {},
      labdata_create_entry: { name: "reliability-entry", folder_id: demo.folders.Backbones },
      labdata_list_assay_runs: { limit: 5 },
      labdata_list_assay_results: { run: "12" },
      labdata_list_tasks: {},
      labdata_list_requests: {},
      labdata_search_entities: { query: "pLKO" },
      labdata_get_entity: { id: sequenceId },
      labdata_search_dna_bases: { bases: demo.registry.shRna3Insert },
      labdata_list_registry_schemas: {},
      labdata_locate: { id: demo.registry.shRnaPlasmids["pLKO-shRNA-3"] },
      labdata_get_box_contents: { id: demo.registry.glycerolBoxId },
      labdata_list_containers: { name: "glycerol" },
      labdata_create_sequences_bulk: {
        text: ">reliability-bulk\nATGGCTAGCAAAGGAGAA\n",
        folder_id: demo.folders.Backbones,
      },
      labdata_unarchive_entities: { type: "dna_sequence", ids: [sequenceId] },
    },
    async credentialCases() {
      const idToken = await idp.mintIdToken({ email: demo.user.email, audience });
      const idTokenFile = tempFile("id_token");
      writeFileSync(idTokenFile, idToken, { mode: 0o600 });
      const refusedFile = tempFile("id_token");
      const refusedToken = `eyJhbGciOiJSUzI1NiJ9.${canary("IdTokenBody")}.${canary("IdTokenSig")}`;
      writeFileSync(refusedFile, refusedToken, { mode: 0o600 });
      const refusedSecret = canary("ClientSecret");
      const refusedKey = canary("ApiKey");
      return [
        { label: "API key (valid)", env, canaries: [demo.user.apiKey], valid: true },
        {
          label: "API key (refused)",
          env: { ...base, LABDATA_API_KEY: refusedKey },
          canaries: [refusedKey],
          valid: false,
        },
        {
          label: "client credentials (valid)",
          env: appEnv,
          canaries: [demo.app.clientSecret],
          valid: true,
        },
        {
          label: "client credentials (refused)",
          env: { ...appEnv, LABDATA_CLIENT_SECRET: refusedSecret },
          canaries: [refusedSecret],
          valid: false,
        },
        {
          label: "ID token (valid)",
          env: { ...base, LABDATA_ID_TOKEN: idToken },
          canaries: [idToken],
          valid: true,
        },
        {
          label: "ID token file (valid)",
          env: { ...base, LABDATA_ID_TOKEN_FILE: idTokenFile },
          canaries: [idToken],
          valid: true,
        },
        {
          label: "ID token file (refused)",
          env: { ...base, LABDATA_ID_TOKEN_FILE: refusedFile },
          canaries: [refusedToken],
          valid: false,
        },
      ];
    },
    // The platform's access tokens: "at_" and 32 random bytes in base64url.
    secretPatterns: [/at_[A-Za-z0-9_-]{43}/],
    askedKey: {
      env: base,
      key: demo.user.apiKey,
      rememberedIn: base.LABDATA_CREDENTIALS_FILE,
    },
    expireTokens: {
      env: appEnv,
      // Past the token's lifetime (3,600 s) on the platform's clock; the server's own clock does not move.
      expire: () => emulator.clock.advance(2 * 3600 * 1000),
      tokenRequests: () => count("/api/v2/token"),
    },
    liftRateLimit() {
      // Not null: without rate headers the server keeps its own 100 / 10 s bucket. A huge limit is
      // announced in x-rate-limit-limit, and the server's bucket follows it.
      emulator.admin.updateSettings(demo.tenant, { rateLimit: { requests: 1_000_000, windowMs: 10_000 } });
      return true;
    },
    steadyCalls: [
      ...sequenceIds.slice(0, 30).map((id) => ({ name: "labdata_get_entity", arguments: { id } })),
      ...sequenceIds.slice(30, 35).map((id) => ({
        name: "labdata_export_dna_sequence",
        arguments: { id, format: "genbank" },
      })),
      ...[0, 10, 20, 30, 40].map((offset) => ({
        name: "labdata_list_entities",
        arguments: { limit: 10, offset, response_format: "json" },
      })),
      { name: "labdata_list_projects", arguments: {} },
      { name: "labdata_list_folders", arguments: { project_id: demo.projects["Plasmid Library"] } },
      { name: "labdata_get_current_user", arguments: {} },
    ],
    async close() {
      await idp.close();
      await emulator.close();
    },
  };
}

/** Ids of the first sequences of the main demo project, read straight from the API. */
async function listSequenceIds(baseUrl: string, apiKey: string, count: number): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/v2/dna-sequences?pageSize=${count}`, {
    headers: { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` },
  });
  if (!response.ok) throw new Error(`listing sequences failed: ${response.status}`);
  const body = (await response.json()) as { dnaSequences: Array<{ id: string }> };
  return body.dnaSequences.map((sequence) => sequence.id);
}

async function startProtocolsTarget(): Promise<RunningTarget> {
  const emulator = await startProtocolsEmulator({ ca: testCa() });
  const demo = emulator.demo;
  if (!demo) throw new Error("the protocol repository emulator started without demo data");
  const token = demo.clientAccessToken;
  const response = await fetch(`${emulator.url}/api/v3/protocols?filter=public&page_size=20`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`listing protocols failed: ${response.status}`);
  const ids = ((await response.json()) as { items: Array<{ id: number }> }).items.map((p) => String(p.id));
  const spaces = await fetch(`${emulator.url}/api/v3/workspaces?page_size=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const [space] = ((await spaces.json()) as { items?: Array<{ uri: string }> }).items ?? [];
  if (!space) throw new Error("the protocol repository emulator has no workspace");
  emulator.requests.clear();
  const base = {
    PROTOCOLS_BASE_URL: emulator.url,
    PROTOCOLS_DOWNLOAD_DIR: join(mkdtempSync(join(tmpdir(), "lab-mcp-reliability-")), "downloads"),
  };
  const env = { ...base, PROTOCOLS_ACCESS_TOKEN: token };
  const protocol = String(demo.sampleProtocol.id);
  const refusedToken = canary("ClientToken");
  return {
    env,
    remoteRequests: () => emulator.requests.count(),
    clearRemoteRequests: () => emulator.requests.clear(),
    injectFault: (fault, times = 1) => emulator.faults.inject(fault, { path: "/api/", times }),
    clearFaults: () => emulator.faults.clear(),
    probe: { name: "protocols_get_protocol", arguments: { protocol }, answerStartsWith: "# " },
    sampleArgs: {
      protocols_search: { keyword: "protocol", limit: 5 },
      protocols_get_protocol: { protocol },
      protocols_list_my_protocols: { limit: 5 },
      protocols_download_pdf: { protocol },
      protocols_get_profile: {},
      protocols_sign_in: {},
      protocols_sign_out: {},
      protocols_list_workspaces: {},
    },
    async credentialCases() {
      return [
        { label: "client token (valid)", env, canaries: [token], valid: true },
        {
          label: "client token (refused)",
          env: { ...base, PROTOCOLS_ACCESS_TOKEN: refusedToken },
          canaries: [refusedToken],
          valid: false,
        },
      ];
    },
    liftRateLimit() {
      emulator.admin.updateSettings({
        rateLimits: { apiPerMinute: 1_000_000, pdfSignedInPerMinute: 1_000_000 },
      });
      return true;
    },
    steadyCalls: [
      ...ids.slice(0, 12).map((id) => ({ name: "protocols_get_protocol", arguments: { protocol: id } })),
      ...ids
        .slice(12, 16)
        .map((id) => ({ name: "protocols_get_protocol", arguments: { protocol: id, part: "steps" } })),
      ...[0, 5, 10].map((offset) => ({
        name: "protocols_search",
        arguments: { limit: 5, offset, response_format: "json" },
      })),
      { name: "protocols_get_profile", arguments: {} },
    ],
    close: () => emulator.close(),
  };
}

const STARTERS: Record<string, { bin: string; start(): Promise<RunningTarget> }> = {
  example_mcp: { bin: "example-mcp", start: startExampleTarget },
  labdata_mcp: { bin: "labdata-mcp", start: startLabdataTarget },
  protocols_mcp: { bin: "protocols-mcp", start: startProtocolsTarget },
};

/** Every server of ALL_SERVICES; one without a starter throws when started, saying what is missing. */
export const TARGETS: Target[] = ALL_SERVICES.map(({ definition }) => {
  const starter = STARTERS[definition.serverName];
  return {
    serverName: definition.serverName,
    definition,
    bin: starter?.bin ?? definition.serverName.replace(/_mcp$/, "-mcp"),
    start: async () => {
      if (!starter)
        throw new Error(
          `No emulator starter for ${definition.serverName}: add one to STARTERS in test/reliability/targets.ts`,
        );
      return starter.start();
    },
  };
});
