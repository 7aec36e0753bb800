#!/usr/bin/env node
// protocols-mcp: the MCP server of the protocol repository; `login` and `logout` sign in and out.
import { runServer } from "../core/run.js";
import { runLogin, runLogout, SUBCOMMANDS_HELP } from "../services/protocols/cli.js";
import { protocolsService } from "../services/protocols/index.js";

/** Exits once what was written has left, even when stdout and stderr are pipes. */
function exitWhenFlushed(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

const [command, ...rest] = process.argv.slice(2);
if (command === "login") exitWhenFlushed(await runLogin(rest));
else if (command === "logout") exitWhenFlushed(await runLogout(rest));
else {
  await runServer(protocolsService, "protocols-mcp");
  if ([command, ...rest].some((arg) => arg === "--help" || arg === "-h")) {
    process.stdout.write(`${SUBCOMMANDS_HELP}\n`);
  }
}
