// A service built on our core alone (createMcpServer + serveHttp) that answers the conformance scenarios
// which need fixed test tools or resources that no product server has: each one exercises a core path
// that the product's tools take (a text result, the error boundary, log notifications, progress, a
// resource template). Its id is "test", so its tools are named as the suite wants (test_*).
import { z } from "zod";
import { ActionableError } from "../../packages/lab-mcp/src/core/errors.js";
import { boundedString } from "../../packages/lab-mcp/src/core/inputs.js";
import { json } from "../../packages/lab-mcp/src/core/render.js";
import { defineResource } from "../../packages/lab-mcp/src/core/resource.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { defineTool, reply } from "../../packages/lab-mcp/src/core/tool.js";

/** Every tool answers structured content beside its text, as the product's tools do. */
const MESSAGE = { message: z.string() };
const answer = (message: string) => reply({ message }, message);
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** The pause the suite asks for between notifications, so that a client sees them arrive one by one. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

const simpleText = defineTool({
  name: "test_simple_text",
  title: "Simple text",
  description: "Returns one text block.",
  annotations: READ,
  input: {},
  output: MESSAGE,
  async handler() {
    return answer("This is a simple text response for testing.");
  },
});

const errorHandling = defineTool({
  name: "test_error_handling",
  title: "Error handling",
  description: "Always fails, through the core's error boundary.",
  annotations: READ,
  input: {},
  output: MESSAGE,
  async handler(): Promise<never> {
    throw new ActionableError("This tool intentionally returns an error for testing");
  },
});

const withLogging = defineTool({
  name: "test_tool_with_logging",
  title: "With logging",
  description: "Sends three info log notifications while it runs.",
  annotations: READ,
  input: {},
  output: MESSAGE,
  async handler(_args, ctx) {
    await ctx.log("info", "Tool execution started");
    await pause();
    await ctx.log("info", "Tool processing data");
    await pause();
    await ctx.log("info", "Tool execution completed");
    return answer("Logged three messages.");
  },
});

const withProgress = defineTool({
  name: "test_tool_with_progress",
  title: "With progress",
  description: "Reports progress 0, 50 and 100 percent while it runs.",
  annotations: READ,
  input: {},
  output: MESSAGE,
  async handler(_args, ctx) {
    await ctx.progress(0, "started");
    await pause();
    await ctx.progress(0.5, "half way");
    await pause();
    await ctx.progress(1, "done");
    return answer("Reported progress three times.");
  },
});

const templateData = defineResource({
  name: "template_data",
  uriTemplate: "test://template/{id}/data",
  title: "Template data",
  description: "Data for one id, to test parameter substitution.",
  mimeType: "application/json",
  params: { id: boundedString({ description: "Any id.", max: 40 }) },
  async read({ id }) {
    return json({ id, templateTest: true, data: `Data for ID: ${id}` });
  },
});

export const conformanceFixture: ServiceDefinition<null> = {
  id: "test",
  serverName: "conformance_fixture_mcp",
  version: "0.0.0",
  instructions: "Conformance fixture: the suite's test tools and its resource template, on lab-mcp's core.",
  settings: z.object({}),
  tools: [simpleText, errorHandling, withLogging, withProgress],
  resources: [templateData],
  createService: () => null,
};
