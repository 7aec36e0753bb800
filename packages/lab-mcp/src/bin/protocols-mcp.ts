#!/usr/bin/env node
// protocols-mcp: the MCP server of the protocol repository; `check` tries the settings, `login` and
// `logout` sign in and out.
// First: the young heap kept at its first size (young-heap.ts).
import "../core/start/young-heap.js";
import { checkHelp, runCheck } from "../core/check/run-check.js";
import { runServer } from "../core/start/run.js";
import { protocolsCheck } from "../services/protocols/check.js";
import { runForget, runLogin, runLogout, SUBCOMMANDS_HELP } from "../services/protocols/cli.js";
import { protocolsService } from "../services/protocols/index.js";

await runServer(protocolsService, "protocols-mcp", {
  subcommands: {
    check: (argv) => runCheck(protocolsService, "protocols-mcp", argv, protocolsCheck),
    login: (argv) => runLogin(argv),
    logout: (argv) => runLogout(argv),
    forget: (argv) => runForget(argv),
  },
  helpFooter: `${SUBCOMMANDS_HELP}\n${checkHelp("protocols-mcp")}`,
});
