import { z } from "zod";
import { ActionableError } from "../../../core/errors.js";
import { boundedInteger, pagingInputs } from "../../../core/inputs.js";
import { pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { fetchSteps } from "../api/protocols.js";
import type { ProtocolsApi } from "../client.js";
import { STEP_CHARS, stepMarkdown, stepsMarkdown } from "../format/steps-markdown.js";
import { protocolRef } from "../inputs.js";
import { stepSchema } from "../records/protocols.js";

export const getSteps = defineTool({
  name: "protocols_get_steps",
  title: "Get Protocol Steps",
  description:
    `Read the steps of a protocol in order, under their section headings, a page at a time (steps longer than ${STEP_CHARS} ` +
    "characters are cut in markdown, with a note). Give step_number to read one whole step. Find the protocol id " +
    "with protocols_search; protocols_get_protocol gives its materials and step count.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    protocol: protocolRef("The protocol's id (e.g. 12314) or uri, from protocols_search."),
    step_number: boundedInteger({
      description: "Only this step (1 is the first), whole and uncut; limit and offset are then ignored.",
      min: 1,
      max: 10_000,
    }).optional(),
    ...pagingInputs,
  },
  // A page of steps (the pagination envelope), or with step_number that one step and the step count.
  output: {
    protocol: z.string().describe("The protocol as asked for (id or uri)."),
    ...z.object(pageShape("steps", stepSchema)).partial().shape,
    total_steps: z.number().int().optional().describe("With step_number: how many steps the protocol has."),
    step_number: z.number().int().optional().describe("With step_number: the step asked for."),
    step: stepSchema.optional().describe("With step_number: that step, whole."),
  },
  async handler({ protocol, step_number, limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const steps = await fetchSteps(api, protocol, ctx);
    if (step_number !== undefined) {
      if (step_number > steps.length) {
        throw new ActionableError(
          `Protocol ${protocol} has ${steps.length} step${steps.length === 1 ? "" : "s"}; ask for a step_number from 1 to ${steps.length}.`,
        );
      }
      const step = steps[step_number - 1];
      const one = { protocol, total_steps: steps.length, step_number, step };
      return reply(one, response_format === "json" ? json(one) : stepMarkdown(protocol, steps, step_number));
    }
    const page = pageOf("steps", steps.slice(offset, offset + limit), steps.length, offset);
    const structured = { protocol, ...page };
    return pageReply(structured, response_format, () => {
      if (steps.length === 0) return `Protocol ${protocol} has no steps.`;
      if (offset >= steps.length)
        return `No steps at offset ${offset}: protocol ${protocol} has ${steps.length}. Use a smaller offset.`;
      return stepsMarkdown(protocol, steps, offset, limit);
    });
  },
});
