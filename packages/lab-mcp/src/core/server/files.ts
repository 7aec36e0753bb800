// A tool's files as content blocks of its result: a resource_link always, and the resource itself
// embedded when it is small enough for the client to have it without another request.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ResourceBody } from "../resource.js";
import type { FileResource } from "../tool.js";

/** The largest file embedded in a tool result; a bigger one is only linked, for the client to read. */
export const MAX_EMBEDDED_BYTES = 512 * 1024;

/** A file as content blocks: a resource_link, and the resource itself when it is small enough. */
export function fileContent(file: FileResource): CallToolResult["content"] {
  const size = file.body === undefined ? undefined : byteLength(file.body);
  const link = {
    type: "resource_link" as const,
    uri: file.uri,
    name: file.name,
    ...(file.title ? { title: file.title } : {}),
    mimeType: file.mimeType,
    ...(size === undefined ? {} : { size }),
  };
  if (file.body === undefined || file.embed === false || (size ?? 0) > MAX_EMBEDDED_BYTES) return [link];
  const resource =
    typeof file.body === "string"
      ? { uri: file.uri, mimeType: file.mimeType, text: file.body }
      : { uri: file.uri, mimeType: file.mimeType, blob: Buffer.from(file.body).toString("base64") };
  return [link, { type: "resource", resource }];
}

function byteLength(body: ResourceBody): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}
