// protocols_get_protocol part='steps': a page of the steps in order, or one whole step.

import type { ToolContext } from "../../../core/context.js";
import { ActionableError } from "../../../core/errors.js";
import type { ResponseFormat } from "../../../core/inputs.js";
import { pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { pageOf } from "../../../core/paging.js";
import { json } from "../../../core/render.js";
import { reply } from "../../../core/tool.js";
import { fetchSteps } from "../api/protocols.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { stepMarkdown, stepsMarkdown } from "../format/steps-markdown.js";
import { shownSteps } from "../format/structured.js";

interface StepsAsk {
  protocol: string;
  step_number?: number | undefined;
  limit: number;
  offset: number;
  response_format: ResponseFormat;
}

export async function stepsPart(ask: StepsAsk, ctx: ToolContext & ProtocolsCall, client: ProtocolsClient) {
  const { protocol, step_number, limit, offset, response_format } = ask;
  const steps = await fetchSteps(client, protocol, ctx);
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
  const shown = steps.slice(offset, offset + limit);
  const full = { protocol, ...pageOf("steps", shown, steps.length, offset) };
  if (response_format === "json") return pageReply(full, "json", () => "");
  const page = { protocol, ...pageOf("steps", shownSteps(shown, offset), steps.length, offset) };
  return pageReply(page, "markdown", () => {
    if (steps.length === 0) return `Protocol ${protocol} has no steps.`;
    if (page.count === 0) return pastTheEnd("steps", page);
    return stepsMarkdown(protocol, steps, page);
  });
}
