// Resources: data addressed by a URI template, read with validated placeholder values.
import { UriTemplate } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { ToolContext } from "./context.js";
import type { CallCredential, CredentialNeed, CredentialOf } from "./credentials/credential-source.js";

/** What a resource reads as: text, or bytes (sent as a base64 blob, e.g. a PDF). */
export type ResourceBody = string | Uint8Array;

export interface ResourceDefinition<
  Shape extends z.ZodRawShape,
  Service,
  Need extends CredentialNeed = "required",
> {
  /** A short unique name, e.g. "user_search". */
  name: string;
  /** RFC 6570 template, e.g. "example://users/search/{query}"; a plain URI when it has no placeholder. */
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: string;
  /** The toolset it belongs to, as a tool does: served only where that toolset is (the service id when left out). */
  toolset?: string;
  /** Rules for the placeholder values, with the same trimming and bounds as tool inputs. */
  params: Shape;
  /** What it needs of the caller's credential, as a tool's `credential` (core/tool.ts): "required" when left out. */
  credential?: Need;
  read(
    params: z.output<z.ZodObject<Shape>>,
    ctx: ToolContext & CallCredential<CredentialOf<Service>, Need>,
    service: Service,
  ): Promise<ResourceBody>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of resources holds many parameter shapes and needs
export type AnyResource<Service> = ResourceDefinition<any, Service, any>;

export function defineResource<
  Shape extends z.ZodRawShape,
  Service,
  const Need extends CredentialNeed = "required",
>(definition: ResourceDefinition<Shape, Service, Need>): ResourceDefinition<Shape, Service, Need> {
  return definition;
}

/** A template's query expansion, e.g. "{?only,compact_view}" at its end. */
const QUERY_EXPANSION = /\{\?([^}]+)\}$/;

/**
 * Finds the resource whose template matches a URI, with the placeholder values decoded. A query
 * expansion at the end of a template ({?a,b}) takes its parameters in any order, or none; a query
 * parameter the template does not name is kept, so that validation refuses it.
 */
export function matchResource<Service>(
  resources: AnyResource<Service>[],
  uri: string,
): { resource: AnyResource<Service>; params: Record<string, string> } | undefined {
  for (const resource of resources) {
    const query = QUERY_EXPANSION.exec(resource.uriTemplate);
    const pathTemplate = query ? resource.uriTemplate.slice(0, query.index) : resource.uriTemplate;
    const queryStart = uri.indexOf("?");
    const path = query && queryStart >= 0 ? uri.slice(0, queryStart) : uri;
    const variables = new UriTemplate(pathTemplate).match(path);
    if (!variables) continue;
    const params = Object.fromEntries(
      Object.entries(variables).map(([key, value]) => [key, decodeURIComponent(String(value))]),
    );
    if (query && queryStart >= 0) {
      for (const [key, value] of new URLSearchParams(uri.slice(queryStart + 1))) params[key] = value;
    }
    return { resource, params };
  }
  return undefined;
}
