import { z } from "zod";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { partialNote } from "../api/filtered-list.js";
import * as workflows from "../api/workflows.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { taskLine } from "../format/task-markdown.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { creatorId, creatorInput, personId, personInput } from "../person-ref.js";
import { taskBrief } from "../records/brief.js";

const STATUS_WORDS: Record<workflows.TaskStatusFilter, string> = {
  open: "open",
  pending: "pending",
  in_progress: "in progress",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  any: "",
};

export const listTasks = defineTool({
  name: "labdata_list_tasks",
  title: "List Workflow Tasks",
  description:
    "Workflow tasks assigned to me (default), another user or a team, by status: what each is " +
    "about, who has it, when.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "workflows",
  input: {
    assignee: personInput("'me' (default without a team), 'anyone', a user id or name.").optional(),
    team: boundedString({ description: "Responsible team: name or id.", max: 200 }).optional(),
    creator: creatorInput.optional(),
    status: z
      .enum(["open", "pending", "in_progress", "completed", "failed", "cancelled", "any"])
      .default("open")
      .describe("'open': pending or in progress."),
    ...pagingInputs,
  },
  output: countedPageShape("tasks", taskBrief),
  async handler(
    { assignee, team, creator, status, limit, offset, response_format },
    ctx,
    client: LabdataClient,
  ) {
    const who = assignee ?? (team || creator ? "anyone" : "me");
    const creatorIdOf = await creatorId(client, creator, "labdata_list_tasks", ctx);
    const me = who === "me" ? await client.me(ctx) : undefined;
    const assigneeId =
      who === "me"
        ? (me?.id ?? undefined)
        : who === "anyone"
          ? undefined
          : await personId(client, who, { tool: "labdata_list_tasks", field: "assignee" }, ctx);
    const found = team ? await workflows.findTeam(client, team, "labdata_list_tasks", ctx) : undefined;
    const { items, total, exact, complete } = await workflows.listTasks(
      client,
      { assigneeId, teamId: found?.id ?? undefined, creatorId: creatorIdOf, status },
      offset,
      limit,
      ctx,
    );
    const page = countedPage("tasks", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      const whose = [
        who === "me"
          ? `assigned to you (${nameAndId(me?.name, me?.id)})`
          : who !== "anyone" && `assigned to ${who}`,
        found && `of team ${nameAndId(found.name, found.id)}`,
        creator && `created by ${creator === "me" ? "you" : creator}`,
      ]
        .filter(Boolean)
        .join(", ");
      const title = `${STATUS_WORDS[status] ? `${STATUS_WORDS[status][0]?.toUpperCase()}${STATUS_WORDS[status].slice(1)} tasks` : "Tasks"}${whose ? ` ${whose}` : ""}`;
      const incomplete = !complete && partialNote("task", "assignee or team");
      if (total === 0) return markdown(`No ${title.charAt(0).toLowerCase()}${title.slice(1)}.`, incomplete);
      if (items.length === 0) return pastTheEnd("tasks", page);
      return markdown(
        heading(1, title),
        foundLine("tasks", page),
        items.map(taskLine),
        moreLine(page),
        incomplete,
      );
    });
  },
});
