// A JSON request body checked against a zod schema, with one readable message for the caller when it
// is too large, not JSON, or not the expected shape.
import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { BodyTooLargeError, readBody } from "./http.js";

export type JsonBodyResult<T> = { ok: true; value: T } | { ok: false; status: 400 | 413; message: string };

/** "name: Invalid input; annotations.0.start: Too small" from a zod error's issues. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue.message}`)
    .join("; ");
}

export async function readJsonBody<T>(
  req: IncomingMessage,
  schema: z.ZodType<T>,
  maxBytes = 64 * 1024,
): Promise<JsonBodyResult<T>> {
  let text: string;
  try {
    text = await readBody(req, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { ok: false, status: 413, message: error.message };
    throw error;
  }
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    return { ok: false, status: 400, message: "body is not valid JSON" };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, status: 400, message: describeIssues(parsed.error) };
  return { ok: true, value: parsed.data };
}
