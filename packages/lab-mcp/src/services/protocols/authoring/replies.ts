// What the writing tools answer: the draft or its steps as the repository now has them, read back, in
// markdown and as structured content. Every answer says the draft stays unpublished.

import { z } from "zod";
import { pageOf } from "../../../core/paging.js";
import { fieldList, heading, markdown, nameWithId } from "../../../core/render.js";
import { reply } from "../../../core/tool.js";
import { fetchProtocol, fetchSteps } from "../api/protocols.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { stepsMarkdown } from "../format/steps-markdown.js";
import { shownCopy } from "../format/structured.js";
import type { Protocol } from "../records/protocols.js";

export const NOT_PUBLISHED =
  "It stays a private draft: only you see it, and publishing it is up to you, in the repository's web interface.";

const stepShape = z.looseObject({
  number: z.string(),
  section: z.string().nullable(),
  text: z.string(),
});

export const draftOutput = {
  id: z.number(),
  uri: z.string(),
  title: z.string(),
  url: z.string().optional(),
  public: z.boolean(),
  number_of_steps: z.number(),
};

export const stepsOutput = {
  protocol: z.string(),
  total_steps: z.number(),
  steps: z.array(stepShape),
};

/** The draft read back after a write. */
export async function draftReply(client: ProtocolsClient, ref: string, ctx: ProtocolsCall, done: string) {
  const protocol: Protocol = await fetchProtocol(client, ref, ctx);
  const steps = protocol.steps?.length ?? protocol.number_of_steps ?? 0;
  const structured = {
    id: protocol.id,
    uri: protocol.uri,
    title: protocol.title,
    ...(protocol.url ? { url: protocol.url } : {}),
    public: protocol.public === true,
    number_of_steps: steps,
  };
  const text = markdown(
    heading(1, `${done}: ${nameWithId(protocol.title, protocol.id)}`),
    fieldList({ URI: protocol.uri, Steps: steps, "Web page": protocol.url }),
    NOT_PUBLISHED,
    `Read it with protocols_get_protocol (protocol ${protocol.id}).`,
  );
  return reply(structured, text);
}

/** The steps read back after a write: all of them, in order, under their sections. */
export async function stepsReply(client: ProtocolsClient, ref: string, ctx: ProtocolsCall, done: string) {
  const steps = await fetchSteps(client, ref, ctx);
  const structured = {
    protocol: ref,
    total_steps: steps.length,
    steps: steps.map((step, i) => ({
      number: String(i + 1),
      section: step.section ?? null,
      // Cut where the text cuts it: the answer's copy, not a second, longer one.
      ...renamed(shownCopy(step.step)),
    })),
  };
  const listing =
    steps.length === 0
      ? `Protocol ${ref} has no steps now.`
      : stepsMarkdown(ref, steps, pageOf("steps", steps, steps.length, 0), { cut: true });
  return reply(structured, markdown(`${done}.`, listing, NOT_PUBLISHED));
}

/** A shown step's copy under the authoring answers' field name, `text`. */
function renamed({ step, ...rest }: ReturnType<typeof shownCopy>) {
  return { text: step, ...rest };
}
