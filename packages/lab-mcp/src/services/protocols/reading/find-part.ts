// protocols_get_protocol find='…': which steps of one protocol mention a word, each with its number
// and the sentence that mentions it. Words match by their stem and Greek letters as their names
// (matching/words.ts), so "centrifugation" finds "Centrifuge at …" and "alpha" finds "α".

import { ActionableError } from "../../../core/errors.js";
import type { ResponseFormat } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, shownRange } from "../../../core/page-reply.js";
import { pageOf } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { OTHERS_WROTE, oneLine, quoted } from "../../../core/untrusted-text.js";
import { fetchSteps } from "../api/protocols.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { stepNumber } from "../format/steps-markdown.js";
import { mentioningSentences, mentions, stemsOf } from "../matching/words.js";
import type { Step } from "../records/protocols.js";

/** How much of the sentence that mentions the word is shown. */
const SNIPPET_CHARS = 240;

interface FindAsk {
  protocol: string;
  find: string;
  limit: number;
  offset: number;
  response_format: ResponseFormat;
}

interface Found {
  step: Step;
  /** 1 is the first step: what step_number takes. */
  position: number;
  /** The sentences that mention the word, those with the most of its words first. */
  sentences: string[];
}

export async function findPart(ask: FindAsk, ctx: ProtocolsCall, client: ProtocolsClient) {
  const { protocol, find, limit, offset, response_format } = ask;
  const wanted = [...new Set(stemsOf(find))];
  if (wanted.length === 0)
    throw new ActionableError("find: give a word of letters or digits, e.g. 'centrifuge'.");
  const steps = await fetchSteps(client, protocol, ctx);
  const found: Found[] = steps.flatMap((step, i) =>
    mentions(step.step, wanted)
      ? [{ step, position: i + 1, sentences: mentioningSentences(step.step, wanted) }]
      : [],
  );
  const shown = found.slice(offset, offset + limit);
  if (response_format === "json") {
    const items = shown.map(({ step, position }) => ({ position, ...step }));
    return pageReply({ protocol, find, ...pageOf("steps", items, found.length, offset) }, "json", () => "");
  }
  const items = shown.map(({ step, position, sentences }) => ({
    number: stepNumber(step, position - 1),
    position,
    ...(step.section ? { section: step.section } : {}),
    step: snippet(sentences[0] ?? step.step),
    sentences: sentences.length,
  }));
  const page = { protocol, find, ...pageOf("steps", items, found.length, offset) };
  return pageReply(page, "markdown", () => {
    if (found.length === 0) {
      return `No step of protocol ${protocol} mentions '${find}' (${steps.length} step${steps.length === 1 ? "" : "s"} read).`;
    }
    if (items.length === 0) return pastTheEnd("matching steps", page);
    return markdown(
      heading(1, `Steps of protocol ${protocol} that mention '${find}'`),
      `${found.length} of ${steps.length} steps (${shownRange(page)}); words match by their stem, Greek letters as their names`,
      OTHERS_WROTE,
      items.flatMap((item) => [
        `**Step ${oneLine(item.number)}**` +
          (item.number === String(item.position) ? "" : ` (step_number ${item.position})`) +
          (item.section ? `, section "${oneLine(item.section)}"` : "") +
          (item.sentences > 1 ? `, ${item.sentences} sentences mention it, the first:` : ":"),
        quoted(item.step),
      ]),
      "A whole step: call again with its step_number, without find.",
      moreLine(page),
    );
  });
}

/** A sentence of at most SNIPPET_CHARS, cut between words with "…". */
function snippet(sentence: string): string {
  const flat = sentence.replace(/\s+/g, " ").trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const space = flat.lastIndexOf(" ", SNIPPET_CHARS);
  return `${flat.slice(0, space > 0 ? space : SNIPPET_CHARS)} …`;
}
