// One reading of admin inputs for both ways in (in process and over HTTP): the first problem becomes a
// 400 StoreError that names the field, so a bad value is refused alike either way.
import type { z } from "zod";
import { StoreError } from "../store.js";

/** Parses with `schema`, turning the first problem into a 400 StoreError that names the field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new StoreError(400, `${where}${issue?.message ?? "invalid input"}`);
}
