// Which tools a server offers: read-only mode, toolsets, what the service says it cannot serve, and
// the one destructive gate (MCP_ALLOW_DESTRUCTIVE). A hidden tool is refused with the same reason.
import type { AnyTool } from "../tool.js";
import type { ServedService, ServerOptions } from "./options.js";

/** The reason of a tool hidden by read-only mode or the toolsets (the call's refusal words it itself). */
export const READ_ONLY_OR_TOOLSETS = "it is not enabled on this server (read-only mode or toolsets)";

/**
 * Why a server with these options (and this service) does not offer `tool`, as a sentence an agent
 * reads; undefined when it does. Read-only mode wins over any toolset; a tool may say itself that the
 * service cannot serve it (e.g. writes on a server signed in with a read-only token); a destructive
 * tool needs MCP_ALLOW_DESTRUCTIVE.
 */
export function whyHidden<S>(
  definition: ServedService<S>,
  tool: AnyTool<S>,
  options: ServerOptions,
  service?: S,
): string | undefined {
  if (options.readOnly && !tool.annotations.readOnlyHint) return READ_ONLY_OR_TOOLSETS;
  const toolset = tool.toolset ?? definition.id;
  if (options.toolsets.length > 0 && !options.toolsets.includes(toolset)) return READ_ONLY_OR_TOOLSETS;
  const unavailable = service === undefined ? undefined : tool.unavailable?.(service);
  if (unavailable) return unavailable;
  if (tool.annotations.destructiveHint && !options.allowDestructive) {
    return (
      `Tool ${tool.name} deletes or replaces data, which this server offers only with MCP_ALLOW_DESTRUCTIVE=true. ` +
      "Set it and restart the server to use it."
    );
  }
  return undefined;
}

/** The tools a server offers under the given options, for this service when given. */
export function enabledTools<S>(
  definition: ServedService<S>,
  options: ServerOptions,
  service?: S,
): AnyTool<S>[] {
  return definition.tools.filter((tool) => whyHidden(definition, tool, options, service) === undefined);
}
