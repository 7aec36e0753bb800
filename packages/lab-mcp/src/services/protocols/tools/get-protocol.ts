// protocols_get_protocol: one protocol, one part at a time (overview, steps, materials, versions); it
// took over protocols_get_steps, protocols_get_materials and protocols_list_versions.
import { z } from "zod";
import { ActionableError } from "../../../core/errors.js";
import { boundedInteger, pagingInputs } from "../../../core/inputs.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { fetchProtocol } from "../api/protocols.js";
import type { ProtocolsClient } from "../client.js";
import { protocolMarkdown } from "../format/protocol-markdown.js";
import { protocolFacts, stepShape } from "../format/structured.js";
import { checkedText, protocolRef } from "../inputs.js";
import { findPart } from "../reading/find-part.js";
import { materialsPart } from "../reading/materials-part.js";
import { stepsPart } from "../reading/steps-part.js";
import { versionsPart } from "../reading/versions-part.js";

export const PARTS = ["overview", "steps", "materials", "versions"] as const;

export const getProtocol = defineTool({
  name: "protocols_get_protocol",
  title: "Get Protocol",
  description:
    "Read one protocol by part: 'overview' (facts, authors, DOI, description), 'steps' (paged, or one whole), " +
    "'materials' (vendors, catalog numbers, amounts) or 'versions'; find: the steps naming a word.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    protocol: protocolRef("Id, uri, DOI or web address; '<id>/v2': version 2."),
    part: z.enum(PARTS).optional().describe("Default 'overview'."),
    step_number: boundedInteger({
      description: "One whole step (1 is the first).",
      min: 1,
      max: 10_000,
    }).optional(),
    find: checkedText({
      description: "Only steps that mention it, e.g. 'centrifuge' (by stem; α = alpha).",
      min: 2,
      max: 100,
    }).optional(),
    ...pagingInputs,
  },
  // One shape for the four parts: markdown answers hold what their text shows, json the whole record.
  output: {
    id: z.number().optional(),
    title: z.string().optional(),
    uri: z.string().optional(),
    protocol: z.string().optional(),
    total: z.number().optional(),
    steps: z.array(stepShape).optional(),
    materials: z.array(z.unknown()).optional(),
    versions: z.array(z.unknown()).optional(),
  },
  async handler(
    { protocol, part, step_number, find, limit, offset, response_format },
    ctx,
    client: ProtocolsClient,
  ) {
    if (find !== undefined) {
      if ((part && part !== "steps") || step_number !== undefined) {
        throw new ActionableError(
          "find searches the steps: leave out part (or give 'steps') and step_number.",
        );
      }
      return findPart({ protocol, find, limit, offset, response_format }, ctx, client);
    }
    const chosen = part ?? (step_number === undefined ? "overview" : "steps");
    if (chosen === "steps")
      return stepsPart({ protocol, step_number, limit, offset, response_format }, ctx, client);
    if (chosen === "materials") return materialsPart({ protocol, response_format }, ctx, client);
    if (chosen === "versions") return versionsPart({ protocol, response_format }, ctx, client);
    const record = await fetchProtocol(client, protocol, ctx);
    if (response_format === "json") return reply(record, json(record));
    return reply(protocolFacts(record), protocolMarkdown(record));
  },
});
