#!/usr/bin/env node
// First: the young heap kept at its first size (young-heap.ts).
import "../core/start/young-heap.js";
import { runServer } from "../core/start/run.js";
import { exampleService } from "../services/example/index.js";

await runServer(exampleService, "example-mcp");
