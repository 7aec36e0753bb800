// The tool-call boundary: the one place a call's outcome is decided. Input validated before the
// handler runs; typed errors turned into the conventions' exact texts; an ask for the user answered as
// "input required"; a hidden or unknown tool refused with why.
import type { CallToolResult, InputRequiredResult, ServerContext, Tool } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.js";
import { type ErrorKind, errorKind, errorText, InvalidInputError } from "../errors.js";
import type { CallOutcome } from "../ops/metrics.js";
import { withCallLabels } from "../ops/metrics.js";
import { InputRequiredSignal } from "../pages/url-ask.js";
import type { AnyTool } from "../tool.js";
import { validateInput } from "../validate.js";
import { withCredential } from "./call-credential.js";
import { fileContent } from "./files.js";
import type { ServedService, ServerOptions } from "./options.js";
import { declaredPart } from "./structured-copy.js";
import { READ_ONLY_OR_TOOLSETS, whyHidden } from "./toolsets.js";

/** What tools/call answers: a result, or (first round of an ask) "input required". */
export type CallAnswer = CallToolResult | InputRequiredResult;

/** How a tool call ended, as the metrics and the call log see it: names and kinds, never arguments. */
export interface CallRecord {
  /** The tool's name; "unknown" for a name the server does not have (what a client sends is no label). */
  tool: string;
  outcome: CallOutcome;
  error?: ErrorKind;
}

/**
 * What a call needs of the server it is made to. (Not CallScope, what a service's client
 * and credential source are given: core/credentials/call-scope.ts.)
 */
export interface CallTarget<S> {
  definition: ServedService<S>;
  service: S;
  options: ServerOptions;
  /** The tools this server offers. */
  tools: AnyTool<S>[];
  /** The same tools as tools/list shows them (their output schemas). */
  listedTools: Tool[];
  contextFor(request: ServerContext): ToolContext;
  /** Whether the client of this request renders views (core/view.ts). */
  rendersViews(request: ServerContext): boolean;
}

export interface CallRequest {
  params: { name: string; arguments?: Record<string, unknown> };
}

/** Runs one tools/call through the boundary; never throws for what a tool did. */
export async function callTool<S>(
  target: CallTarget<S>,
  request: CallRequest,
  extra: ServerContext,
): Promise<CallRecord & { result: CallAnswer }> {
  const { definition, service } = target;
  const tool = target.tools.find((candidate) => candidate.name === request.params.name);
  if (!tool) return refusal(target, request.params.name);
  const ctx = target.contextFor(extra);
  const labels = { service: definition.id, tool: tool.name };
  try {
    const args = validateInput(tool.name, tool.input, request.params.arguments);
    const source = definition.credentials?.(service);
    const outcome = await withCallLabels(labels, () =>
      withCredential(source, tool.credential ?? "required", ctx, (call) => tool.handler(args, call, service)),
    );
    // The credential's ask: answered "input required" before any handler ran.
    if ("inputRequired" in outcome) {
      return { result: outcome.inputRequired, tool: tool.name, outcome: "input_required" };
    }
    const answer = outcome.done;
    const result = textResult(answer.text, false);
    result.content.push(...(answer.files ?? []).flatMap(fileContent));
    // A client that draws the tool's view gets all it draws; the others, the answer as always.
    const structuredContent =
      tool.view && target.rendersViews(extra)
        ? { ...answer.structured, ...answer.viewData }
        : briefly(target, args)
          ? (declaredPart(
              target.listedTools.find((listed) => listed.name === tool.name)?.outputSchema,
              answer.structured,
            ) as Record<string, unknown>)
          : answer.structured;
    return { result: { ...result, structuredContent }, tool: tool.name, outcome: "ok" };
  } catch (error) {
    // The ask/retry round of a handler that needs the user mid-call (a sign-in, a confirmation): its
    // ctx.openUrl's first round (pages/url-ask.ts) opens the page and ends the call here as the "input
    // required" answer; the client shows the URL and retries, and the retry waits for the page. A
    // handler that catches every error must rethrow it (`if (error instanceof InputRequiredSignal)
    // throw error`). The credential's own ask never gets here: call-credential.ts returns it.
    if (error instanceof InputRequiredSignal) {
      return { result: error.result, tool: tool.name, outcome: "input_required" };
    }
    if (!(error instanceof InvalidInputError)) {
      await ctx.log("error", `${tool.name} failed`, { error: errorName(error) });
    }
    const kind = errorKind(error);
    return { result: textResult(errorText(error), true), tool: tool.name, outcome: "error", error: kind };
  }
}

/** Whether the answer's structured copy is only what the output schema declares: markdown, where the service asks. */
function briefly<S>(target: CallTarget<S>, args: Record<string, unknown>): boolean {
  return target.definition.briefStructured === true && args.response_format !== "json";
}

/** A tool this server does not offer: why (hidden by an option, or unknown), as the agent reads it. */
function refusal<S>(target: CallTarget<S>, name: string): CallRecord & { result: CallAnswer } {
  const hidden = target.definition.tools.find((candidate) => candidate.name === name);
  const why = hidden ? whyHidden(target.definition, hidden, target.options, target.service) : undefined;
  const failed = (text: string) => ({
    result: textResult(text, true),
    tool: hidden?.name ?? "unknown",
    outcome: "error" as const,
    error: hidden ? ("tool_unavailable" as const) : ("unknown_tool" as const),
  });
  if (why === READ_ONLY_OR_TOOLSETS || !hidden) {
    const what = hidden ? "is not enabled on this server (read-only mode or toolsets)" : "does not exist";
    return failed(`Error: Tool ${name} ${what}. Call tools/list for the tools available.`);
  }
  return failed(`Error: ${why}`);
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
