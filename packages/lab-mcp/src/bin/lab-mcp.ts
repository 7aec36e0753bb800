#!/usr/bin/env node
// lab-mcp <server> [settings]: the package's default bin, so that `npx -y lab-mcp labdata-mcp` and the
// MCP Registry's npm entry (server.json) can start a server by its name; the rest of the command line
// is the server's own (`lab-mcp protocols-mcp check`).
// First: the young heap kept at its first size (young-heap.ts).
import "../core/start/young-heap.js";
import { PRODUCT_VERSION } from "../core/start/version.js";

const SERVERS = ["labdata-mcp", "protocols-mcp", "example-mcp"];
const [name = ""] = process.argv.slice(2);

if (SERVERS.includes(name)) {
  process.argv.splice(2, 1);
  await import(`./${name}.js`);
} else if (name === "--version" || name === "-v") {
  process.stdout.write(`lab-mcp ${PRODUCT_VERSION}\n`);
} else {
  const usage = `Usage: lab-mcp <${SERVERS.join("|")}> [--help | check | settings...]\n`;
  const help = name === "--help" || name === "-h";
  (help ? process.stdout : process.stderr).write(usage);
  process.exitCode = help ? 0 : 2;
}
