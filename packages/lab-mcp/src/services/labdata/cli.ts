// `labdata-mcp forget`: an operator deletes one person's stored API key from the fleet's shared state
// (a person who left, a key reported lost), with the same settings (environment or flags) as the
// servers. The person's next call asks for a key again; the warehouse login minted for them goes too.
import { consoleOutput, FORGET_FLAGS, forgetSubjectOf, type Output } from "../../core/start/admin-cli.js";
import { parseArguments } from "../../core/start/argv.js";
import { ConfigError, flagsOf, readSettings } from "../../core/start/config.js";
import { coreSettingsFor } from "../../core/start/run.js";
import { openSharedState, stateSettingsOf } from "../../core/state/open.js";
import { personNamesKey } from "../../core/state/person-names.js";
import { apiKeyCredential } from "./auth/api-key.js";
import { PersonKeys, personNameKey } from "./auth/person-keys.js";
import { exchangedBudgetId } from "./auth/token-exchange.js";
import { labdataService } from "./index.js";
import { LABDATA_SETTINGS } from "./settings.js";
import { WarehouseLogins } from "./warehouse/logins.js";

export const SUBCOMMANDS_HELP = `
Subcommands:
  labdata-mcp forget --subject <sub> [--issuer <issuer>]
      Deletes the API key a person stored on a team server (MCP_AUTH_ISSUER), from the shared state of
      every replica (REDIS_URL, MCP_STATE_KEY, MCP_STATE_PREFIX and LABDATA_BASE_URL as the servers
      have them). <sub> is the person's subject at the identity provider (the 'sub' of their token);
      the issuer defaults to MCP_AUTH_ISSUER. Their next call asks for a key again. Their warehouse
      login, if one was minted, is deleted too.`;

const COMMAND = "labdata-mcp";

/** Runs `forget`; returns the exit code: 0 done (deleted, or nothing stored), 1 the state failed, 2 a settings problem. */
export async function runForget(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: Output = consoleOutput,
): Promise<number> {
  const core = coreSettingsFor(labdataService);
  let subject: string;
  let keys: (state: Awaited<ReturnType<typeof openSharedState>>) => PersonKeys;
  let logins: (state: Awaited<ReturnType<typeof openSharedState>>) => WarehouseLogins;
  let settings: ReturnType<typeof stateSettingsOf>;
  try {
    const { help, given } = parseArguments(argv, [...FORGET_FLAGS, ...flagsOf(core, LABDATA_SETTINGS)]);
    if (help) {
      output.out(SUBCOMMANDS_HELP.trim());
      return 0;
    }
    subject = forgetSubjectOf(given, env.MCP_AUTH_ISSUER);
    // The settings flags only: the subcommand's own are not settings.
    const settingsGiven = new Map([...given].filter(([name]) => name !== "--subject" && name !== "--issuer"));
    const values = readSettings(core, LABDATA_SETTINGS, settingsGiven, env);
    settings = stateSettingsOf(values);
    if (!settings?.redisUrl) {
      throw new ConfigError(
        "forget works on the servers' shared state: set REDIS_URL and MCP_STATE_KEY as the servers have them " +
          "(a server without REDIS_URL keeps keys in its own memory, gone when it stops)",
      );
    }
    const nameKey = personNameKey(settings.key);
    keys = (state) => new PersonKeys(state.secrets, values.LABDATA_BASE_URL, nameKey);
    const loginNames = personNamesKey(settings.key, "labdata warehouse logins");
    logins = (state) => new WarehouseLogins(state.secrets, values.LABDATA_BASE_URL, loginNames);
  } catch (error) {
    if (error instanceof ConfigError) return usageError(output, error.message);
    throw error;
  }

  let state: Awaited<ReturnType<typeof openSharedState>> | undefined;
  try {
    state = await openSharedState(settings, (message) => output.err(`${COMMAND} forget: ${message}`));
    const personKeys = keys(state);
    const stored = await personKeys.read(subject);
    const removed = await personKeys.remove(subject);
    output.out(
      removed
        ? "Forgotten: deleted the person's stored API key. Their next call asks for a key again."
        : "Nothing to forget: no API key is stored for that person on this platform.",
    );
    // The warehouse login minted with their key, or with their exchanged token.
    const identities = [
      stored && apiKeyCredential(stored.apiKey).id,
      exchangedBudgetId(personKeys.digestOf(subject)),
    ];
    let loginRemoved = false;
    for (const identity of identities) {
      if (identity && (await logins(state).forget(identity))) loginRemoved = true;
    }
    if (loginRemoved) output.out("Also deleted their warehouse login.");
    return 0;
  } catch (error) {
    const reason = (error as Error).message.replace(/[.\s]+$/, "");
    output.err(`${COMMAND} forget: ${reason}. Nothing was deleted.`);
    return 1;
  } finally {
    await state?.close().catch(() => undefined);
  }
}

function usageError(output: Output, message: string): number {
  const sentence = /[.?!]$/.test(message) ? message : `${message}.`;
  output.err(`${COMMAND}: ${sentence} Run '${COMMAND} forget --help'.`);
  return 2;
}
