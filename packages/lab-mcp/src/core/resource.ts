// Resources: data addressed by a URI template, read with validated placeholder values.
import { UriTemplate } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { ToolContext } from "./context.js";

/** What a resource reads as: text, or bytes (sent as a base64 blob, e.g. a PDF). */
export type ResourceBody = string | Uint8Array;

export interface ResourceDefinition<Shape extends z.ZodRawShape, Service> {
  /** A short unique name, e.g. "user_search". */
  name: string;
  /** RFC 6570 template, e.g. "example://users/search/{query}"; a plain URI when it has no placeholder. */
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: string;
  /** Rules for the placeholder values, with the same trimming and bounds as tool inputs. */
  params: Shape;
  read(params: z.output<z.ZodObject<Shape>>, ctx: ToolContext, service: Service): Promise<ResourceBody>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of resources holds many parameter shapes
export type AnyResource<Service> = ResourceDefinition<any, Service>;

export function defineResource<Shape extends z.ZodRawShape, Service>(
  definition: ResourceDefinition<Shape, Service>,
): ResourceDefinition<Shape, Service> {
  return definition;
}

/** Finds the resource whose template matches a URI, with the placeholder values decoded. */
export function matchResource<Service>(
  resources: AnyResource<Service>[],
  uri: string,
): { resource: AnyResource<Service>; params: Record<string, string> } | undefined {
  for (const resource of resources) {
    const variables = new UriTemplate(resource.uriTemplate).match(uri);
    if (!variables) continue;
    const params = Object.fromEntries(
      Object.entries(variables).map(([key, value]) => [key, decodeURIComponent(String(value))]),
    );
    return { resource, params };
  }
  return undefined;
}
