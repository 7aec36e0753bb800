// Many DNA sequences at once: the platform's bulk-create answers with an asynchronous task, polled
// here until it succeeds or fails, with its progress passed on. Bounded: at most MAX_POLLS polls.

import { setTimeout as delay } from "node:timers/promises";
import { ActionableError, InvalidResponseError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient, NewDnaSequence } from "../client.js";
import { type DnaSequence, dnaSequenceSchema } from "../records/platform.js";
import { taskLinkSchema, taskSchema } from "../records/registry.js";

const MAX_POLLS = 120;
const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 2000;

export async function bulkCreateSequences(
  client: LabdataClient,
  sequences: NewDnaSequence[],
  ctx: LabdataCall,
): Promise<DnaSequence[]> {
  const { body: link } = await client.send(
    {
      method: "POST",
      path: apiPath`api/v2/dna-sequences:bulk-create`,
      body: { dnaSequences: sequences },
      schema: taskLinkSchema,
    },
    ctx,
  );
  if (!link.taskId) throw new InvalidResponseError("the platform answered without a task id");
  let wait = FIRST_WAIT_MS;
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    const task = await client.get(apiPath`api/v2/tasks/${link.taskId}`, taskSchema, ctx);
    if (task.status === "SUCCEEDED") {
      const created = task.response?.dnaSequences ?? [];
      return created.flatMap((item) => {
        const parsed = dnaSequenceSchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
    }
    if (task.status === "FAILED") {
      throw new ActionableError(
        `the platform created none of the sequences: ${failureText(task.message, task.errors)}`,
      );
    }
    // Strictly increasing and below 1, as MCP progress must be; the platform's message says how far.
    await ctx.progress?.(
      (poll + 1) / (poll + 2),
      task.message?.trim() || `Waiting for the platform (task ${link.taskId})`,
    );
    await delay(wait, undefined, { signal: ctx.signal });
    wait = Math.min(LONGEST_WAIT_MS, wait * 2);
  }
  throw new ActionableError(
    `the platform's task ${link.taskId} was still running after ${MAX_POLLS} checks; list the folder's sequences later to see what was created.`,
  );
}

/** The task's message and its first item errors, as plain text (never raw JSON). */
function failureText(message: string | null | undefined, errors: unknown): string {
  const items = Array.isArray(errors) ? errors : [];
  const lines = items.slice(0, 5).flatMap((error) => {
    if (!error || typeof error !== "object") return [];
    const { index, message: why } = error as { index?: unknown; message?: unknown };
    if (typeof why !== "string") return [];
    return [typeof index === "number" ? `sequence ${index + 1}: ${why}` : why];
  });
  return [message?.trim() || "the task failed", ...lines].join("; ");
}
