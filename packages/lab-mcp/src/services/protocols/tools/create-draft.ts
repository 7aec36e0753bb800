import { defineTool } from "../../../core/tool.js";
import { createBlankDraft, sendSteps, stepsToSend, updateDraftFields } from "../api/drafts.js";
import { authoringUnavailable, requireAuthoring } from "../authoring/availability.js";
import { markdownField, stepsInput, titleInput, withSections } from "../authoring/inputs.js";
import { draftOutput, draftReply } from "../authoring/replies.js";
import { replacement } from "../authoring/step-list.js";
import type { ProtocolsClient } from "../client.js";

export const createDraft = defineTool({
  name: "protocols_create_draft",
  title: "Create Protocol Draft",
  description:
    "Create a private protocol draft as the signed-in user: title, description, guidelines, materials and " +
    "optionally its steps, in markdown. Returns the draft's id for the other writing tools. Nothing is published.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "writes",
  input: {
    title: titleInput,
    description: markdownField("What it is for.").optional(),
    guidelines: markdownField("For whoever runs it.").optional(),
    materials: markdownField("A list: name, vendor, catalogue number, amount.").optional(),
    steps: stepsInput.optional(),
  },
  output: draftOutput,
  unavailable: authoringUnavailable,
  async handler({ title, description, guidelines, materials, steps }, ctx, client: ProtocolsClient) {
    requireAuthoring(client, ctx);
    const planned = steps ? replacement([], await stepsToSend(withSections(steps))) : undefined;
    await ctx.progress(0.1, "Creating the draft");
    const id = String(await createBlankDraft(client, ctx));
    await updateDraftFields(client, id, { title, description, guidelines, materials_text: materials }, ctx);
    if (planned) {
      await ctx.progress(0.6, "Writing the steps");
      await sendSteps(client, id, planned.send, ctx);
    }
    return draftReply(client, id, ctx, "Draft created");
  },
});
