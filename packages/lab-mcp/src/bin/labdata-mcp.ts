#!/usr/bin/env node
// labdata-mcp: the MCP server of the lab data platform; `check` tries the settings, `forget` deletes a
// person's stored API key.
// First: the young heap kept at its first size (young-heap.ts).
import "../core/start/young-heap.js";
import { checkHelp, runCheck } from "../core/check/run-check.js";
import { runServer } from "../core/start/run.js";
import { labdataCheck } from "../services/labdata/check.js";
import { runForget, SUBCOMMANDS_HELP } from "../services/labdata/cli.js";
import { labdataService } from "../services/labdata/index.js";

await runServer(labdataService, "labdata-mcp", {
  subcommands: {
    check: (argv) => runCheck(labdataService, "labdata-mcp", argv, labdataCheck),
    forget: (argv) => runForget(argv),
  },
  helpFooter: `${SUBCOMMANDS_HELP}\n${checkHelp("labdata-mcp")}`,
});
