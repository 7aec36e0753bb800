// The rules a protocol's steps obey when written (fact sheet §5.3), checked here before anything is sent:
// the steps form one linked list, with exactly one first step (previous_guid null), no loop, and every
// step reached from the first (no dangling link, no branch). Also: the writes that insert, change or
// remove one step, or replace them all, worked out as the steps to send, on a list that is whole.
import { randomUUID } from "node:crypto";
import { ActionableError } from "../../../core/errors.js";

/** A step as written to the repository: its Draft.js text and its section, as they are sent. */
export interface WireStep {
  guid: string;
  previous_guid: string | null;
  /** A Draft.js JSON string (or the text as the repository sent it, when passed through unchanged). */
  step: string;
  section: string | null;
}

export type ListProblem = "several first steps" | "a loop" | "an incomplete sequence";

/** What is wrong with the links of `steps`, or undefined when they form one list. */
export function listProblem(
  steps: ReadonlyArray<Pick<WireStep, "guid" | "previous_guid">>,
): ListProblem | undefined {
  if (steps.length === 0) return undefined;
  const guids = new Set(steps.map((step) => step.guid));
  if (guids.size !== steps.length) return "an incomplete sequence";
  const firsts = steps.filter((step) => step.previous_guid === null);
  if (firsts.length > 1) return "several first steps";
  if (firsts.length === 0) return "a loop";
  const next = new Map<string, string>();
  for (const step of steps) {
    if (step.previous_guid === null) continue;
    if (step.previous_guid === step.guid) return "a loop";
    if (!guids.has(step.previous_guid) || next.has(step.previous_guid)) return "an incomplete sequence";
    next.set(step.previous_guid, step.guid);
  }
  let reached = 0;
  const seen = new Set<string>();
  for (let at: string | undefined = firsts[0]?.guid; at !== undefined; at = next.get(at)) {
    if (seen.has(at)) return "a loop";
    seen.add(at);
    reached++;
  }
  return reached === steps.length ? undefined : "a loop";
}

/** Throws the agent's error when `steps` (the list a write would leave) is not one list. */
export function assertOneList(
  steps: ReadonlyArray<Pick<WireStep, "guid" | "previous_guid">>,
  doing: string,
): void {
  const problem = listProblem(steps);
  if (problem) {
    throw new ActionableError(
      `Not sent: ${doing} would leave the steps with ${problem}; each step must follow exactly one other, ` +
        "from one first step to the last. Nothing was changed.",
    );
  }
}

/** A new step id of the form the repository uses (32 hexadecimal digits). */
export function newGuid(): string {
  return randomUUID().replaceAll("-", "").toUpperCase();
}

/** The list after `changed` steps replace those of the same guid and new ones join, in list order. */
export function merged(current: readonly WireStep[], changed: readonly WireStep[]): WireStep[] {
  const byGuid = new Map(current.map((step) => [step.guid, step]));
  for (const step of changed) byGuid.set(step.guid, step);
  return [...byGuid.values()];
}

/** The current list, checked: a protocol whose steps branch (step cases) or are broken is not written. */
export function checkedCurrent(current: readonly WireStep[]): void {
  const problem = listProblem(current);
  if (problem) {
    throw new ActionableError(
      `This protocol's steps do not form one list (${problem}, e.g. step cases that branch); change them in ` +
        "the repository's web interface. Nothing was changed.",
    );
  }
}

/** 1-based position -> the step there, or an error naming the range. */
export function stepAt(current: readonly WireStep[], position: number, what = "step_number"): WireStep {
  const step = current[position - 1];
  if (!step) {
    const range = current.length === 0 ? "it has no steps" : `give ${what} from 1 to ${current.length}`;
    throw new ActionableError(`The protocol has ${current.length} steps: ${range}. Nothing was changed.`);
  }
  return step;
}

/** The steps to send to insert `step` after position `after` (0: at the start). */
export function insertion(
  current: readonly WireStep[],
  after: number,
  step: Omit<WireStep, "guid" | "previous_guid">,
): WireStep[] {
  if (after > current.length) {
    throw new ActionableError(
      `The protocol has ${current.length} steps: give after_step from 0 (at the start) to ${current.length}. Nothing was changed.`,
    );
  }
  const added: WireStep = {
    ...step,
    guid: newGuid(),
    previous_guid: after === 0 ? null : (current[after - 1]?.guid ?? null),
  };
  const follower = current[after];
  const send = follower ? [added, { ...follower, previous_guid: added.guid }] : [added];
  assertOneList(merged(current, send), "inserting the step");
  return send;
}

/**
 * The writes that make `wanted` the whole list: the current steps keep their guids in order (changed in
 * place), new ones follow, and the ones left over are removed afterwards, so that the list is whole after
 * each request.
 */
export function replacement(
  current: readonly WireStep[],
  wanted: ReadonlyArray<Omit<WireStep, "guid" | "previous_guid">>,
): { send: WireStep[]; remove: string[] } {
  const send: WireStep[] = [];
  wanted.forEach((step, i) => {
    const guid = current[i]?.guid ?? newGuid();
    send.push({ ...step, guid, previous_guid: i === 0 ? null : (send[i - 1]?.guid ?? null) });
  });
  const remove = current.slice(wanted.length).map((step) => step.guid);
  assertOneList(merged(current, send), "replacing the steps");
  const removed = new Set(remove);
  assertOneList(
    merged(current, send).filter((step) => !removed.has(step.guid)),
    "replacing the steps",
  );
  return { send, remove };
}

/**
 * The list once the step at `position` is gone, its follower following its predecessor: what a removal
 * must leave, checked before the request.
 */
export function afterRemoval(
  current: readonly WireStep[],
  position: number,
): { gone: WireStep; left: WireStep[] } {
  const gone = stepAt(current, position);
  const left = current
    .filter((step) => step.guid !== gone.guid)
    .map((step) =>
      step.previous_guid === gone.guid ? { ...step, previous_guid: gone.previous_guid } : step,
    );
  assertOneList(left, "deleting the step");
  return { gone, left };
}
