// Request parameters from a form (application/x-www-form-urlencoded, what browsers and RFC 6749 send) or
// a JSON object of strings (what many API clients send), as one flat record.
import type { IncomingMessage } from "node:http";
import { BodyTooLargeError, readBody } from "./http.js";

export type ParsedParams = { ok: true; params: Record<string, string> } | { ok: false; message: string };

function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function fromForm(text: string): ParsedParams {
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    // RFC 6749 section 3.1: parameters must not be sent more than once.
    if (name in params) return { ok: false, message: `${name} is sent more than once` };
    params[name] = value;
  }
  return { ok: true, params };
}

function fromJson(text: string): ParsedParams {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: "the body is not valid JSON" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: "the JSON body must be an object" };
  }
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== "string") return { ok: false, message: `${name} must be a string` };
    params[name] = value;
  }
  return { ok: true, params };
}

export async function readParams(req: IncomingMessage): Promise<ParsedParams> {
  const type = mediaType(req);
  if (type !== "application/x-www-form-urlencoded" && type !== "application/json") {
    return {
      ok: false,
      message: "Content-Type must be application/x-www-form-urlencoded or application/json",
    };
  }
  let text: string;
  try {
    text = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { ok: false, message: error.message };
    throw error;
  }
  return type === "application/json" ? fromJson(text) : fromForm(text);
}
