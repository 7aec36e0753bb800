// defineTool(): the shape every tool of every service is declared in, and the checks made when a
// tool is registered. Annotations are required by the type; inputs are built from core/inputs.ts.
import type { z } from "zod";
import type { ToolContext } from "./context.js";
import type { CallCredential, CredentialNeed, CredentialOf } from "./credentials/credential-source.js";
import type { ResourceBody } from "./resource.js";
import type { ViewDefinition } from "./view.js";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * What a tool answers: the text the agent reads (markdown or json, exactly as the conventions word
 * them) and the same answer as structured content, valid under the tool's output schema: the
 * pagination envelope for a list, the record for one item.
 */
export interface ToolReply<Structured extends object = Record<string, unknown>> {
  text: string;
  structured: Structured;
  /** Files the answer is about, sent as resource links (and embedded when small): see FileResource. */
  files?: FileResource[];
  /**
   * What the tool's view draws beyond the structured content (e.g. the record behind an export), added
   * to it only for a client that renders the view: the others read the answer as before.
   */
  viewData?: Record<string, unknown>;
}

/**
 * A file a tool produced, as one of the server's resources: the client reads it by URI (over HTTP it
 * cannot read the server's disk). Sent as a resource_link; its body, when given and small enough, is
 * embedded too, so that the client has it without another request.
 */
export interface FileResource {
  /** A URI of one of the server's resources, e.g. protocols://protocols/{uri}/pdf. */
  uri: string;
  /** A file name a client may save it under, e.g. "bacterial-transformation.pdf". */
  name: string;
  title?: string;
  mimeType: string;
  body?: ResourceBody;
  /** False: link only (the text of the reply already holds the body); the body still gives the size. */
  embed?: boolean;
}

/** A reply whose structured content is `structured` and whose text is `text`, about `files`, if any. */
export function reply<Structured extends object>(
  structured: Structured,
  text: string,
  files?: FileResource[],
): ToolReply<Structured> {
  return files && files.length > 0 ? { text, structured, files } : { text, structured };
}

export interface ToolDefinition<
  Shape extends z.ZodRawShape,
  Service,
  Output extends z.ZodRawShape = z.ZodRawShape,
  Name extends string = string,
  Need extends CredentialNeed = "required",
> {
  /**
   * snake_case, prefixed with the service id, e.g. "example_search_users"; kept as its literal type,
   * so that a table keyed by the tools' names (test/support/sample-calls.mjs) misses none.
   */
  name: Name;
  title: string;
  /** When to use the tool, what it returns, and which tool finds the ids it takes. */
  description: string;
  /** The toolset it belongs to, for MCP_TOOLSETS; the service id when left out. */
  toolset?: string;
  annotations: ToolAnnotations;
  input: Shape;
  /**
   * The shape of the structured content (the tool's outputSchema, an open object): the pagination
   * envelope (core/paging.ts pageShape) for a list, the record for one item, a small record of what
   * was done for an action.
   */
  output: Output;
  /**
   * Why a server built with this service does not offer the tool (e.g. writes on a server that signs in
   * with a read-only client token, or a destructive tool without MCP_ALLOW_DESTRUCTIVE); undefined when
   * it does. A tool that has it also refuses with that reason when called (see `refuseIfUnavailable`).
   */
  unavailable?(service: Service): string | undefined;
  /**
   * A picture of the answer (core/view.ts), linked from the tool in tools/list. A client that renders it
   * gets the whole structured content (not cut down to the output schema) and the reply's viewData.
   */
  view?: ViewDefinition;
  /**
   * What the tool needs of the caller's credential for the service (core/credentials/credential-source.ts):
   * decided at the tool-call boundary before the handler runs, and found on `ctx.credential`. "required"
   * when left out, the safe default: a tool never reaches the remote as nobody in particular.
   */
  credential?: Need;
  /** Returns the reply, text and structured content; throws typed errors (core/errors.ts). */
  handler(
    args: z.output<z.ZodObject<Shape>>,
    ctx: ToolContext & CallCredential<CredentialOf<Service>, Need>,
    service: Service,
  ): Promise<ToolReply<z.output<z.ZodObject<Output>>>>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of tools holds many input shapes and needs
export type AnyTool<Service> = ToolDefinition<any, Service, any, string, any>;

/** Declares a tool; the type makes every required part explicit. */
export function defineTool<
  Shape extends z.ZodRawShape,
  Service,
  Output extends z.ZodRawShape = z.ZodRawShape,
  const Name extends string = string,
  const Need extends CredentialNeed = "required",
>(
  definition: ToolDefinition<Shape, Service, Output, Name, Need>,
): ToolDefinition<Shape, Service, Output, Name, Need> {
  return definition;
}

const CREDENTIAL_NEEDS: CredentialNeed[] = ["required", "optional", "none"];
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;
const ANNOTATION_KEYS: Array<keyof ToolAnnotations> = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
];

/** The registration-time checks: a broken tool stops the server from starting, not a call. */
export function assertValidTool(serviceId: string, tool: AnyTool<unknown>): void {
  const problems: string[] = [];
  if (!SNAKE_CASE.test(tool.name)) problems.push("its name is not snake_case");
  if (!tool.name.startsWith(`${serviceId}_`)) problems.push(`its name does not start with "${serviceId}_"`);
  if (!tool.title.trim()) problems.push("it has no title");
  if (!tool.description.trim()) problems.push("it has no description");
  if (typeof tool.output !== "object" || tool.output === null) problems.push("it has no output shape");
  for (const key of ANNOTATION_KEYS) {
    if (typeof tool.annotations?.[key] !== "boolean") problems.push(`annotation ${key} is not a boolean`);
  }
  if (tool.credential !== undefined && !CREDENTIAL_NEEDS.includes(tool.credential)) {
    problems.push(
      `its credential need "${String(tool.credential)}" is not one of ${CREDENTIAL_NEEDS.join(", ")}`,
    );
  }
  if (tool.annotations?.readOnlyHint && tool.annotations.destructiveHint) {
    problems.push("it cannot be both read-only and destructive");
  }
  if (problems.length > 0)
    throw new Error(`Tool "${tool.name}" cannot be registered: ${problems.join("; ")}`);
}
