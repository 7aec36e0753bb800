// Views: a picture of a tool's answer (MCP Apps, the `io.modelcontextprotocol/ui` extension). A tool
// names a `ui://` resource of the server, an HTML page that hosts render in a sandboxed frame beside
// the tool's result, fed by its structured content. A client without the extension reads exactly the
// answer it read before; tools/list only gains the link in the tool's `_meta`.
import type { AnyResource } from "./resource.js";

/** The extension's id, as clients and servers name it under `capabilities.extensions`. */
export const VIEW_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of a view's HTML resource. */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

export interface ViewDefinition {
  /** A short unique name among the server's resources, e.g. "plasmid_map_view". */
  name: string;
  /** `ui://<server>/<view>`: the resource a tool links to. */
  uri: `ui://${string}`;
  title: string;
  description: string;
  /** The page: one self-contained HTML document (its script and style inline, no network). */
  html(): Promise<string>;
}

export function defineView(definition: ViewDefinition): ViewDefinition {
  return definition;
}

/**
 * The view as one of the server's resources, read like any other (resources/list, resources/read);
 * served where a tool that links to it is offered.
 */
export function viewResource(view: ViewDefinition): AnyResource<unknown> {
  return {
    name: view.name,
    uriTemplate: view.uri,
    title: view.title,
    description: view.description,
    mimeType: VIEW_MIME_TYPE,
    params: {},
    read: () => view.html(),
  };
}

/** The tool's `_meta` in tools/list: the link to its view (the extension's `ui.resourceUri`). */
export function viewMeta(view: ViewDefinition): { ui: { resourceUri: string } } {
  return { ui: { resourceUri: view.uri } };
}

/** Whether capabilities a client declared say it renders views (the extension with its MIME type). */
export function rendersViews(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const ui = extensions?.[VIEW_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(VIEW_MIME_TYPE);
}
