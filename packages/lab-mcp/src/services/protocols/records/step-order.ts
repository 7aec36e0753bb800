// The order of a protocol's steps (fact sheet 5.3): array order is no guarantee. Steps form a linked
// list through previous_guid (v3 also previous_id; the first step's is null, or 0 in the 2018 docs), so
// the list is walked from its first step; where several steps follow one (step cases), each branch is
// read whole before the next. Steps the walk does not reach (a loop, a dangling link) follow in the
// order of their dotted numbers. Without any links: dotted number order, else array order.
import type { Step } from "./protocols.js";

export function orderSteps(steps: Step[]): Step[] {
  const fallback = byNumber(steps);
  const keyOf = (step: Step) => step.guid ?? (step.id !== undefined ? `id:${step.id}` : undefined);
  const byKey = new Map<string, Step>();
  for (const step of steps) {
    const key = keyOf(step);
    if (key !== undefined && !byKey.has(key)) byKey.set(key, step);
  }
  const idKey = new Map<number, string>();
  for (const [key, step] of byKey) if (step.id !== undefined && !idKey.has(step.id)) idKey.set(step.id, key);
  const previousOf = (step: Step): string | undefined => {
    if (step.previous_guid !== undefined)
      return byKey.has(step.previous_guid) ? step.previous_guid : undefined;
    if (step.previous_id !== undefined && step.previous_id !== 0) return idKey.get(step.previous_id);
    return undefined;
  };
  if (!steps.some((step) => previousOf(step) !== undefined)) return fallback;

  const rank = new Map(fallback.map((step, i) => [step, i]));
  const children = new Map<string | undefined, Step[]>();
  for (const step of fallback) {
    const previous = previousOf(step);
    const key = keyOf(step);
    // A step that names itself as its predecessor is a loop of one: it starts nothing.
    const parent = previous !== undefined && previous === key ? "(loop)" : previous;
    const siblings = children.get(parent);
    if (siblings) siblings.push(step);
    else children.set(parent, [step]);
  }
  const ordered: Step[] = [];
  const seen = new Set<Step>();
  // Depth first, iteratively (a long protocol must not exhaust the stack).
  const pending = [...(children.get(undefined) ?? [])].reverse();
  while (pending.length > 0) {
    const step = pending.pop() as Step;
    if (seen.has(step)) continue;
    seen.add(step);
    ordered.push(step);
    const key = keyOf(step);
    const next = key === undefined ? [] : (children.get(key) ?? []);
    for (const child of [...next].reverse()) if (!seen.has(child)) pending.push(child);
  }
  const rest = fallback.filter((step) => !seen.has(step));
  return [...ordered, ...rest.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0))];
}

/** Steps by dotted number ("2" < "2.1" < "10") when every step has one, else as they came. */
function byNumber(steps: Step[]): Step[] {
  const numbers = steps.map((step) => dotted(step.number));
  if (numbers.some((n) => n === undefined)) return [...steps];
  return steps
    .map((step, i) => ({ step, i, number: numbers[i] as number[] }))
    .sort((a, b) => compareDotted(a.number, b.number) || a.i - b.i)
    .map(({ step }) => step);
}

function dotted(number: string | undefined): number[] | undefined {
  if (number === undefined || !/^\d+(\.\d+)*$/.test(number)) return undefined;
  return number.split(".").map(Number);
}

function compareDotted(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}
