// Which tools and resources a server offers: read-only mode, toolsets (the service's default ones,
// `all`, or a list) and single tools (MCP_TOOLS), what the service says it cannot serve, and the one
// destructive gate (MCP_ALLOW_DESTRUCTIVE). A hidden tool is refused with the same reason.
import type { AnyResource } from "../resource.js";
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
  const selected = options.tools?.includes(tool.name) ?? false;
  if (!selected && !inToolsets(tool.toolset ?? definition.id, options)) return READ_ONLY_OR_TOOLSETS;
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

/** Whether a toolset is served: every one when the options name none. */
function inToolsets(toolset: string, options: ServerOptions): boolean {
  return options.toolsets.length === 0 || options.toolsets.includes(toolset);
}

/** The resources a server offers: those of the toolsets it serves. */
export function enabledResources<S>(definition: ServedService<S>, options: ServerOptions): AnyResource<S>[] {
  return (definition.resources ?? []).filter((resource) =>
    inToolsets(resource.toolset ?? definition.id, options),
  );
}

/**
 * The toolset that holds a service's writes (creating, editing, archiving). It is never in the default:
 * every read is served out of the box and writes are asked for by name (MCP_TOOLSETS=default,writes).
 */
export const WRITES_TOOLSET = "writes";

/** The toolsets served when MCP_TOOLSETS is unset: those the service names, else every one but writes. */
export function defaultToolsetsOf<S>(definition: ServedService<S>): string[] {
  return definition.defaultToolsets ?? toolsetNames(definition).filter((name) => name !== WRITES_TOOLSET);
}

/** Every toolset of a service by name (one, named by its id, when it declares none). */
export function toolsetNames<S>(definition: ServedService<S>): string[] {
  return Object.keys(definition.toolsets ?? { [definition.id]: "" });
}

/**
 * The toolsets MCP_TOOLSETS asks for: unset, the service's default ones; `all`, every one; a list, those
 * named, where `default` stands for the default ones (`default,results`). Names are checked at start-up.
 */
export function selectedToolsets<S>(definition: ServedService<S>, requested: string[] | undefined): string[] {
  const all = toolsetNames(definition);
  const defaults = defaultToolsetsOf(definition);
  const names = (requested ?? ["default"]).flatMap((name) =>
    name === "all" ? all : name === "default" ? defaults : [name],
  );
  const selected = all.filter((name) => names.includes(name));
  // Every toolset is no filter at all: a tool or resource without a declared toolset stays served.
  return selected.length === all.length ? [] : selected;
}
