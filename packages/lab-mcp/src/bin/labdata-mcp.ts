#!/usr/bin/env node
import { runServer } from "../core/run.js";
import { labdataService } from "../services/labdata/index.js";

await runServer(labdataService, "labdata-mcp");
