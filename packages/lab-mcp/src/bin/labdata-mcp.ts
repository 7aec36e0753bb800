#!/usr/bin/env node
// labdata-mcp: the MCP server of the lab data platform; `forget` deletes a person's stored API key.
import { runServer } from "../core/start/run.js";
import { runForget, SUBCOMMANDS_HELP } from "../services/labdata/cli.js";
import { labdataService } from "../services/labdata/index.js";

await runServer(labdataService, "labdata-mcp", {
  subcommands: { forget: (argv) => runForget(argv) },
  helpFooter: SUBCOMMANDS_HELP,
});
