import { ActionableError } from "../../../core/errors.js";
import { defineTool } from "../../../core/tool.js";
import { updateDraftFields } from "../api/drafts.js";
import { authoringUnavailable, requireAuthoring } from "../authoring/availability.js";
import { markdownField, titleInput } from "../authoring/inputs.js";
import { draftOutput, draftReply } from "../authoring/replies.js";
import type { ProtocolsClient } from "../client.js";
import { protocolRef } from "../inputs.js";

export const updateDraft = defineTool({
  name: "protocols_update_draft",
  title: "Update Protocol Draft",
  description:
    "Change the title, description, guidelines, safety warnings or materials of your unpublished draft " +
    "(markdown); fields left out stay. Find drafts with protocols_list_my_protocols which='with_drafts'. Nothing " +
    "is published.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: {
    protocol: protocolRef("The draft's id (e.g. 12314) or uri."),
    title: titleInput.optional(),
    description: markdownField("What it is for.").optional(),
    guidelines: markdownField("For whoever runs it.").optional(),
    warning: markdownField("Safety warnings.").optional(),
    materials: markdownField("The materials, as a list.").optional(),
  },
  output: draftOutput,
  unavailable: authoringUnavailable,
  async handler(
    { protocol, title, description, guidelines, warning, materials },
    ctx,
    client: ProtocolsClient,
  ) {
    if ([title, description, guidelines, warning, materials].every((field) => field === undefined)) {
      throw new ActionableError(
        "Nothing to change: give at least one of title, description, guidelines, warning, materials.",
      );
    }
    requireAuthoring(client, ctx);
    await updateDraftFields(
      client,
      protocol,
      { title, description, guidelines, warning, materials_text: materials },
      ctx,
    );
    return draftReply(client, protocol, ctx, "Draft updated");
  },
});
