// What a markdown answer's structured copy holds: what its text shows (ids, names, dates, counts), not
// the whole remote record; response_format=json gives every field. The output shapes describe both,
// small and open, with the field names of the records so that the two formats never disagree.
import { z } from "zod";
import type { Person, Protocol, ProtocolSummary, Step } from "../records/protocols.js";
import { shownStep, stepNumber } from "./steps-markdown.js";

/** A workspace in a list. */
export const workspaceShape = z.looseObject({ id: z.number(), title: z.string(), uri: z.string() });

/** A protocol in a list, in both formats (json adds the record's other fields). */
export const listedShape = z.looseObject({ id: z.number(), title: z.string(), uri: z.string() });

/** A step as a step answer holds it: in markdown, cut where the text cuts it. */
export const stepShape = z.looseObject({ step: z.string() });

const person = (p: Person) => ({ name: p.name, ...(p.username ? { username: p.username } : {}) });

/** A protocol as a line of a list shows it. */
export function listedProtocol(protocol: ProtocolSummary) {
  const steps = (protocol as Protocol).steps?.length ?? protocol.number_of_steps;
  return dropUndefined({
    id: protocol.id,
    title: protocol.title,
    uri: protocol.uri,
    authors: protocol.authors.map((a) => ({ name: a.name })),
    published_on: protocol.published_on,
    created_on: protocol.published_on ? undefined : protocol.created_on,
    number_of_steps: steps,
    public: protocol.public,
    is_bookmarked: protocol.is_bookmarked || undefined,
  });
}

/** One protocol as its overview shows it: facts, people, materials' names; no prose, no steps. */
export function protocolFacts(protocol: Protocol) {
  return dropUndefined({
    ...listedProtocol(protocol),
    doi: protocol.doi,
    url: protocol.url,
    version_id: protocol.version_id,
    creator: protocol.creator ? person(protocol.creator) : undefined,
    authors: protocol.authors.map((a) => ({
      ...person(a),
      ...(a.affiliation ? { affiliation: a.affiliation } : {}),
    })),
    materials: protocol.materials.map((m) => dropUndefined({ name: m.name, vendor: m.vendor, sku: m.sku })),
  });
}

/** A step's text as a page shows it (instruction first, cut at a sentence end), and whether some was left. */
export function shownCopy(text: string): { step: string; cut?: true } {
  const shown = shownStep(text);
  return shown.cut || shown.left.length > 0 ? { step: shown.text, cut: true } : { step: shown.text };
}

/** Steps as a page of the steps answer shows them: number, section, text as the text shows it. */
export function shownSteps(steps: Step[], offset: number) {
  return steps.map((step, i) =>
    dropUndefined({
      number: stepNumber(step, offset + i),
      section: step.section ?? undefined,
      ...shownCopy(step.step),
    }),
  );
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
