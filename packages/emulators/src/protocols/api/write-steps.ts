// Step writes of a draft (fact sheet §5.3): POST /api/v4/protocols/{id}/steps with
// {"steps": [{guid, previous_guid, step, section?}]} adds the steps it names anew and changes those it
// names again (by guid); DELETE with {"steps": [guid, ...]} removes steps, each follower then following
// the removed step's predecessor. The result must stay one linked list: exactly one first step
// (previous_guid null), no loop, every step reached from the first. Otherwise the service refuses the
// whole write with its quoted texts, and nothing changes.
import { z } from "zod";
import type { HttpResponse } from "../../common/response.js";
import type { Protocol } from "../model.js";
import type { StepDraft } from "../store.js";
import type { ApiRequest } from "./api-answer.js";
import { StatusCode } from "./api-errors.js";
import { stepsWire } from "./api-shapes.js";
import { storedText } from "./draft-input.js";
import { badBody, readWriteBody } from "./write-protocol.js";

/** The real service's words for a broken list (§5.3). */
export const STEP_LIST_ERRORS = {
  loop: "loop detected",
  multipleFirst: "multiple first steps",
  incomplete: "steps are not forming a complete sequence",
} as const;

const MAX_STEPS = 1000;
const MAX_STEP_CHARS = 50_000;
const MAX_SECTION_CHARS = 300;
const GUID = /^[0-9A-Fa-f]{32}$/;

const guid = z.string({ error: "guid must be text" }).regex(GUID, "guid must be 32 hexadecimal digits");

const writtenStep = z.object({
  guid,
  previous_guid: guid.nullable().optional(),
  step: z
    .string({ error: "step must be text" })
    .transform((value) => storedText(value) ?? "")
    .refine((value) => value.length <= MAX_STEP_CHARS, `step must be at most ${MAX_STEP_CHARS} characters`)
    .optional(),
  section: z
    .string({ error: "section must be text" })
    .max(MAX_SECTION_CHARS, `section must be at most ${MAX_SECTION_CHARS} characters`)
    .nullable()
    .optional(),
  section_color: z.string().max(20).nullable().optional(),
  is_substep: z.boolean().optional(),
});

const postSchema = z.object({
  steps: z.array(writtenStep).min(1, "steps must not be empty").max(MAX_STEPS, `at most ${MAX_STEPS} steps`),
});
const deleteSchema = z.object({
  steps: z.array(guid).min(1, "steps must not be empty").max(MAX_STEPS, `at most ${MAX_STEPS} steps`),
});

interface LinkedDraft extends StepDraft {
  guid: string;
  previous: string | null;
}

export async function writeSteps(request: ApiRequest, protocol: Protocol): Promise<HttpResponse> {
  const body = await readWriteBody(request);
  if (!body) return badBody(request);
  const parsed = postSchema.safeParse(body);
  if (!parsed.success) return badBody(request, parsed.error.issues[0]?.message);
  const merged = linkedSteps(protocol);
  const index = new Map(merged.map((step, i) => [step.guid, i]));
  for (const written of parsed.data.steps) {
    const key = written.guid.toUpperCase();
    const at = index.get(key);
    const kept = at === undefined ? undefined : merged[at];
    const step: LinkedDraft = {
      guid: key,
      previous:
        written.previous_guid === undefined
          ? (kept?.previous ?? null)
          : (written.previous_guid?.toUpperCase() ?? null),
      text: written.step ?? kept?.text ?? "",
      section: written.section === undefined ? (kept?.section ?? null) : plainSection(written.section),
    };
    if (at === undefined) {
      index.set(key, merged.length);
      merged.push(step);
    } else merged[at] = step;
  }
  return store(request, protocol, merged);
}

export async function deleteSteps(request: ApiRequest, protocol: Protocol): Promise<HttpResponse> {
  const body = await readWriteBody(request);
  if (!body) return badBody(request);
  const parsed = deleteSchema.safeParse(body);
  if (!parsed.success) return badBody(request, parsed.error.issues[0]?.message);
  const gone = new Set(parsed.data.steps.map((g) => g.toUpperCase()));
  const steps = linkedSteps(protocol);
  const unknown = [...gone].find((g) => !steps.some((step) => step.guid === g));
  if (unknown) return request.answer.error(404, StatusCode.NOT_FOUND, `Step ${unknown} not found.`);
  const previousOf = new Map(steps.map((step) => [step.guid, step.previous]));
  // A follower of a removed step follows the nearest kept step before it.
  const keptBefore = (previous: string | null): string | null => {
    let at = previous;
    for (let hops = 0; at !== null && gone.has(at) && hops <= steps.length; hops++)
      at = previousOf.get(at) ?? null;
    return at;
  };
  const kept = steps
    .filter((step) => !gone.has(step.guid))
    .map((step) => ({ ...step, previous: keptBefore(step.previous) }));
  return store(request, protocol, kept);
}

function store(request: ApiRequest, protocol: Protocol, steps: LinkedDraft[]): HttpResponse {
  const ordered = walk(steps);
  if (typeof ordered === "string") return request.answer.error(400, StatusCode.BAD_PARAMETERS, ordered);
  request.ctx.store.replaceSteps(protocol, ordered);
  return request.answer.ok({ [request.view.dialect.stepsKey]: stepsWire(protocol, request.view) });
}

/** The stored steps with their links (the emulator keeps them in linked order). */
function linkedSteps(protocol: Protocol): LinkedDraft[] {
  return protocol.steps.map((step, i) => ({
    guid: step.guid.toUpperCase(),
    previous: i === 0 ? null : (protocol.steps[i - 1]?.guid.toUpperCase() ?? null),
    text: step.text,
    section: step.section,
  }));
}

/** The steps in linked order, or the service's words for why they are not one list. */
export function walk(steps: LinkedDraft[]): LinkedDraft[] | string {
  if (steps.length === 0) return [];
  const byGuid = new Map(steps.map((step) => [step.guid, step]));
  const firsts = steps.filter((step) => step.previous === null);
  if (firsts.length > 1) return STEP_LIST_ERRORS.multipleFirst;
  if (firsts.length === 0) return STEP_LIST_ERRORS.loop;
  const next = new Map<string, LinkedDraft>();
  for (const step of steps) {
    if (step.previous === null) continue;
    if (step.previous === step.guid) return STEP_LIST_ERRORS.loop;
    if (!byGuid.has(step.previous) || next.has(step.previous)) return STEP_LIST_ERRORS.incomplete;
    next.set(step.previous, step);
  }
  const ordered: LinkedDraft[] = [];
  const seen = new Set<string>();
  for (let at: LinkedDraft | undefined = firsts[0]; at; at = next.get(at.guid)) {
    if (seen.has(at.guid)) return STEP_LIST_ERRORS.loop;
    seen.add(at.guid);
    ordered.push(at);
  }
  // Every step has a known predecessor and none has two followers: the ones not reached form a loop.
  return ordered.length === steps.length ? ordered : STEP_LIST_ERRORS.loop;
}

/** A section name as text: the service sends `<p>Name</p>` and may be sent it back. */
function plainSection(section: string | null): string | null {
  if (section === null) return null;
  const text = section
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
  return text === "" ? null : text;
}
