// The server's resources: the SDK lists them; reading is ours, so that a URI is matched by
// core/resource.ts (query parameters in any order, or none), validated like a tool's input, and read
// through the one error boundary, as a resource error the client understands.
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceTemplate,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.js";
import { errorText, InvalidInputError, RemoteStatusError } from "../errors.js";
import { withCallLabels } from "../ops/metrics.js";
import { InputRequiredSignal } from "../pages/url-ask.js";
import { matchResource, type ResourceBody } from "../resource.js";
import { validateInput } from "../validate.js";
import { withCredential } from "./call-credential.js";
import type { ServedService } from "./options.js";

/** Reads a resource of the server by URI, as a client would, within the request `request`. */
export type ResourceReader = (
  uri: string,
  request: ServerContext,
) => Promise<{ mimeType: string; body: ResourceBody }>;

export function resourceReader<S>(
  definition: ServedService<S>,
  service: S,
  contextFor: (request: ServerContext) => ToolContext,
): ResourceReader {
  const resources = definition.resources ?? [];
  return async (uri, request) => {
    const match = matchResource(resources, uri);
    if (!match)
      throw new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        `No resource of ${definition.serverName} matches ${uri}`,
        { uri },
      );
    const params = validateInput(`resource ${match.resource.name}`, match.resource.params, match.params);
    const labels = { service: definition.id, tool: `resource:${match.resource.name}` };
    const outcome = await withCallLabels(labels, () =>
      withCredential(
        definition.credentials?.(service),
        match.resource.credential ?? "required",
        contextFor(request),
        (ctx) => match.resource.read(params, ctx, service),
      ),
    );
    // resources/read has no "input required" answer: an ask fails the read, as it always has.
    if ("inputRequired" in outcome) throw new InputRequiredSignal(outcome.inputRequired);
    return { mimeType: match.resource.mimeType, body: outcome.done };
  };
}

/**
 * The parsed URI template of each resource, built once per process: a 2026-07-28 HTTP request gets a
 * server of its own, which should not parse every template again.
 */
const templates = new WeakMap<object, ResourceTemplate>();

function templateOf(resource: { uriTemplate: string }): ResourceTemplate {
  let template = templates.get(resource);
  if (!template) {
    template = new ResourceTemplate(resource.uriTemplate, { list: undefined });
    templates.set(resource, template);
  }
  return template;
}

/** Registers the service's resources (listing by the SDK) and answers resources/read through `read`. */
export function registerResources<S>(
  mcp: McpServer,
  definition: ServedService<S>,
  read: ResourceReader,
): void {
  const resources = definition.resources ?? [];
  const readResult = async (uri: string, request: ServerContext): Promise<ReadResourceResult> => {
    try {
      const { mimeType, body } = await read(uri, request);
      const content =
        typeof body === "string"
          ? { uri, mimeType, text: body }
          : { uri, mimeType, blob: Buffer.from(body).toString("base64") };
      return { contents: [content] };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      const notFound = error instanceof RemoteStatusError && error.status === 404;
      const code =
        error instanceof InvalidInputError
          ? ProtocolErrorCode.InvalidParams
          : ProtocolErrorCode.InternalError;
      // The URI rides along in the error's data, as SEP-2164 asks of a resource that is not there.
      throw new ProtocolError(notFound ? ProtocolErrorCode.ResourceNotFound : code, errorText(error), {
        uri,
      });
    }
  };
  for (const resource of resources) {
    const metadata = {
      title: resource.title,
      description: resource.description,
      mimeType: resource.mimeType,
    };
    const onRead = (uri: URL, request: ServerContext) => readResult(uri.href, request);
    if (resource.uriTemplate.includes("{")) {
      mcp.registerResource(resource.name, templateOf(resource), metadata, (uri, _variables, request) =>
        onRead(uri, request),
      );
    } else {
      mcp.registerResource(resource.name, resource.uriTemplate, metadata, onRead);
    }
  }
  if (resources.length > 0) {
    mcp.server.setRequestHandler("resources/read", (request, extra) => readResult(request.params.uri, extra));
  }
}

/** A resource's body as the text a tool reads (bytes as base64). */
export function bodyText(body: ResourceBody): string {
  return typeof body === "string" ? body : Buffer.from(body).toString("base64");
}
