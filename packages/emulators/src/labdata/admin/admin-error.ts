// What an admin operation refuses, with the HTTP status the admin API answers it with.
import type { z } from "zod";
import { describeIssues } from "../../common/json-body.js";

export class AdminError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly code: "invalid_request" | "not_found" | "conflict",
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string): AdminError => new AdminError(400, "invalid_request", message);
export const missing = (message: string): AdminError => new AdminError(404, "not_found", message);
export const conflict = (message: string): AdminError => new AdminError(409, "conflict", message);

/** Parses admin input with `schema`, refusing it as a 400 that names every problem. */
export function validated<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(describeIssues(parsed.error));
  return parsed.data;
}
