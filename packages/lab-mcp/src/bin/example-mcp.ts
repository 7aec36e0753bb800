#!/usr/bin/env node
import { runServer } from "../core/run.js";
import { exampleService } from "../services/example/index.js";

await runServer(exampleService, "example-mcp");
