#!/usr/bin/env node
import { runServer } from "../core/start/run.js";
import { exampleService } from "../services/example/index.js";

await runServer(exampleService, "example-mcp");
