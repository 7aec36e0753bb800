import { defineTool } from "../../../core/tool.js";
import { removeSteps, sendSteps, wireSteps } from "../api/drafts.js";
import { authoringUnavailable, requireAuthoring } from "../authoring/availability.js";
import { stepNumberInput } from "../authoring/inputs.js";
import { stepsOutput, stepsReply } from "../authoring/replies.js";
import { afterRemoval, assertOneList, checkedCurrent, merged } from "../authoring/step-list.js";
import type { ProtocolsClient } from "../client.js";
import { protocolRef } from "../inputs.js";

export const deleteStep = defineTool({
  name: "protocols_delete_step",
  title: "Delete Draft Step",
  description:
    "Delete one step of your unpublished draft, by its number; the steps after it move up one. It cannot be " +
    "undone. Returns the steps. Nothing is published.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  toolset: "writes",
  input: {
    protocol: protocolRef("The draft's id (e.g. 12314) or uri."),
    step_number: stepNumberInput("The step to delete (1 is the first)."),
  },
  output: stepsOutput,
  unavailable: authoringUnavailable,
  async handler({ protocol, step_number }, ctx, client: ProtocolsClient) {
    requireAuthoring(client, ctx);
    const current = await wireSteps(client, protocol, ctx);
    checkedCurrent(current);
    const { gone } = afterRemoval(current, step_number);
    const after = await removeSteps(client, protocol, [gone.guid], ctx);
    // A repository that leaves the follower pointing at the removed step gets the link it must have.
    const dangling = (after ?? [])
      .filter((step) => step.previous_guid === gone.guid)
      .map((step) => ({ ...step, previous_guid: gone.previous_guid }));
    if (after && dangling.length > 0) {
      assertOneList(merged(after, dangling), "linking the step after the deleted one");
      await sendSteps(client, protocol, dangling, ctx);
    }
    return stepsReply(client, protocol, ctx, `Step ${step_number} deleted`);
  },
});
