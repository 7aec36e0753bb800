// protocols_mcp connected in memory to a fake repository, with a client token or a stored OAuth sign-in,
// and the log notifications its client hears.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeEach } from "vitest";
import { protocolsService } from "../../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, connectInMemory } from "../../support/clients.js";
import { useStarted } from "../../support/fixture.js";
import { type FakeRepository, startFakeRepository } from "./fake-repository.js";

export const CLIENT_TOKEN = "pr_live_client_token_0123456789abcdef";

export interface Listening extends Connected {
  /** Log notifications heard: level and text. */
  logs: Array<{ level: string; text: string }>;
  tokenFile: string;
}

function folder(): string {
  return mkdtempSync(join(tmpdir(), "protocols-recorded-"));
}

async function connect(env: Record<string, string>, tokenFile: string): Promise<Listening> {
  const connection = await connectInMemory(protocolsService, env);
  const logs: Listening["logs"] = [];
  connection.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const data = notification.params.data;
    logs.push({
      level: notification.params.level,
      text: typeof data === "string" ? data : JSON.stringify(data),
    });
  });
  return { ...connection, logs, tokenFile };
}

export function connectWithClientToken(fake: FakeRepository): Promise<Listening> {
  const dir = folder();
  return connect(
    {
      MCP_TOOLSETS: "all",
      PROTOCOLS_BASE_URL: fake.baseUrl,
      PROTOCOLS_ACCESS_TOKEN: CLIENT_TOKEN,
      PROTOCOLS_DOWNLOAD_DIR: join(dir, "downloads"),
    },
    "",
  );
}

export const OAUTH_APP = { clientId: "pr_live_id_0a1b2c", clientSecret: "pr_live_sc_3d4e5f" };

/** Signed in with OAuth: a token file holding this pair, valid for an hour more. */
export function connectWithOAuth(
  fake: FakeRepository,
  pair: { access: string; refresh: string },
  extra: Record<string, string> = {},
): Promise<Listening> {
  const dir = folder();
  const tokenFile = join(dir, "tokens.json");
  writeFileSync(
    tokenFile,
    JSON.stringify({
      access_token: pair.access,
      refresh_token: pair.refresh,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      base_url: fake.baseUrl,
      client_id: OAUTH_APP.clientId,
    }),
    { mode: 0o600 },
  );
  return connect(
    {
      MCP_TOOLSETS: "all",
      PROTOCOLS_BASE_URL: fake.baseUrl,
      PROTOCOLS_CLIENT_ID: OAUTH_APP.clientId,
      PROTOCOLS_CLIENT_SECRET: OAUTH_APP.clientSecret,
      PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:38211/callback",
      PROTOCOLS_TOKEN_FILE: tokenFile,
      PROTOCOLS_DOWNLOAD_DIR: join(dir, "downloads"),
      ...extra,
    },
    tokenFile,
  );
}

/** What an agent never reads in markdown. */
export const NEVER_SHOWN =
  /undefined|\bnull\b|\[object Object\]|<\/?(p|div|strong|em|b|br)\b|"blocks"|&amp;|&lt;/;

/** The fake repository of a file's tests: started before them, closed after, its record cleared before each. */
export function useFakeRepository(): FakeRepository {
  const fake = useStarted("the fake repository", startFakeRepository);
  beforeEach(() => {
    fake.seen.length = 0;
  });
  return fake;
}

/** A server signed in with the client token on `fake`, for all of a file's tests. */
export function useClientTokenServer(fake: FakeRepository): Listening {
  return useStarted("the server on the fake repository", () => connectWithClientToken(fake));
}
