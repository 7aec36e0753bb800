// POST /dna-sequences:bulk-create answers 202 with an AsyncTaskLink; GET /tasks/{id} answers RUNNING
// for a few polls (progress in `message`), then SUCCEEDED with the created sequences, or FAILED with
// the errors of the items the platform refused (nothing is created then). The folders must be
// writable when the request comes: a 403 at once, as for one sequence.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { readJsonBody } from "../../common/json-body.js";
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound, payloadTooLarge } from "../api/errors.js";
import { sequenceToWire } from "../api/shapes.js";
import { allows, roleOnFolder } from "../auth/permissions.js";
import { registryOf } from "../registry/store.js";
import { buildSequence, createSequenceSchema, sequenceProblem } from "../sequences/input.js";
import { ID_PREFIX } from "../state/ids.js";
import type { RouteContext } from "./context.js";

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_ITEMS = 1000;
/** Sequences the emulated platform "creates" between two polls. */
const PER_POLL = 5;

const bulkSchema = z.object({ dnaSequences: z.array(z.unknown()).min(1).max(MAX_ITEMS) }).strict();

export async function bulkCreateDnaSequences(ctx: RouteContext): Promise<HttpResponse> {
  const read = await readJsonBody(ctx.req, bulkSchema, MAX_BODY_BYTES);
  if (!read.ok) throw read.status === 413 ? payloadTooLarge(read.message) : badRequest(read.message);
  const errors: Array<{ index: number; message: string }> = [];
  const inputs = read.value.dnaSequences.flatMap((raw, index) => {
    const parsed = createSequenceSchema.safeParse(raw);
    if (!parsed.success) {
      errors.push({ index, message: parsed.error.issues[0]?.message ?? "invalid sequence" });
      return [];
    }
    const problem = sequenceProblem(parsed.data);
    if (problem) errors.push({ index, message: problem });
    return [parsed.data];
  });
  for (const input of inputs) {
    const folder = ctx.tenant.folders.get(input.folderId);
    if (!folder) throw badRequest(`folderId: no folder '${input.folderId}'`);
    if (!allows(roleOnFolder(ctx.tenant, ctx.principal.actor, folder), "write")) {
      throw forbidden(`You cannot create in folder ${folder.id}`);
    }
  }
  const total = read.value.dnaSequences.length;
  const id = randomUUID();
  const pollsLeft = Math.ceil(total / PER_POLL);
  const { tenant } = ctx;
  if (errors.length > 0) {
    const message = `${errors.length} of ${total} sequences could not be created`;
    registryOf(tenant).tasks.set(id, {
      id,
      ownerKey: ctx.principal.rateKey,
      pollsLeft,
      total,
      outcome: { status: "FAILED", message, errors },
    });
  } else {
    const sequences = inputs.map((input) =>
      buildSequence(input, {
        id: ctx.ids.next(ID_PREFIX.dnaSequence),
        creatorId: ctx.principal.actor.user.id,
        now: ctx.clock.now(),
      }),
    );
    const commit = () => {
      for (const seq of sequences) tenant.sequences.set(seq.id, seq);
    };
    const response = { dnaSequences: sequences.map((seq) => sequenceToWire(tenant, seq)) };
    registryOf(tenant).tasks.set(id, {
      id,
      ownerKey: ctx.principal.rateKey,
      pollsLeft,
      total,
      outcome: { status: "SUCCEEDED", response, commit },
    });
  }
  ctx.resourceId = id;
  return jsonResponse(202, { taskId: id });
}

export function getTask(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const task = registryOf(ctx.tenant).tasks.get(id);
  // Another caller's task is as good as unknown.
  if (!task || task.ownerKey !== ctx.principal.rateKey) throw notFound(`No task ${id}`);
  if (task.pollsLeft > 0) {
    const done = Math.min(task.total, (Math.ceil(task.total / PER_POLL) - task.pollsLeft) * PER_POLL);
    task.pollsLeft--;
    return jsonResponse(200, { status: "RUNNING", message: `Processed ${done} of ${task.total}` });
  }
  const { outcome } = task;
  if (outcome.status === "FAILED") {
    return jsonResponse(200, { status: "FAILED", message: outcome.message, errors: outcome.errors });
  }
  outcome.commit();
  // Committed once: later polls answer the same without creating anything again.
  outcome.commit = () => {};
  return jsonResponse(200, { status: "SUCCEEDED", response: outcome.response });
}
