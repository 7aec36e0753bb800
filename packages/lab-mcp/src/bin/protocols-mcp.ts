#!/usr/bin/env node
// protocols-mcp: the MCP server of the protocol repository; `login` and `logout` sign in and out.
import { runServer } from "../core/start/run.js";
import { runForget, runLogin, runLogout, SUBCOMMANDS_HELP } from "../services/protocols/cli.js";
import { protocolsService } from "../services/protocols/index.js";

await runServer(protocolsService, "protocols-mcp", {
  subcommands: {
    login: (argv) => runLogin(argv),
    logout: (argv) => runLogout(argv),
    forget: (argv) => runForget(argv),
  },
  helpFooter: SUBCOMMANDS_HELP,
});
