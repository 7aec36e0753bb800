import { z } from "zod";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown, utcTime } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { partialNote } from "../api/filtered-list.js";
import * as workflows from "../api/workflows.js";
import type { LabdataClient } from "../client.js";
import { createdInput } from "../created-filters.js";
import { fieldText } from "../format/field.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { personId, personInput } from "../person-ref.js";
import { requestBrief } from "../records/brief.js";
import type { LabRequest } from "../records/notebook.js";

const STATUS: Record<string, string> = {
  REQUESTED: "requested",
  SCHEDULED: "scheduled",
  IN_PROGRESS: "in progress",
  COMPLETED: "completed",
  CANCELLED: "cancelled",
};

function requestLine(request: LabRequest): string {
  const asked = Object.entries(request.fields ?? {})
    .map(([name, value]) => {
      const text = fieldText(value);
      return text ? `${name}: ${text}` : undefined;
    })
    .filter(Boolean);
  const assignees = (request.assignees ?? [])
    .map((a) =>
      a.user ? nameAndId(a.user.name, a.user.id) : a.team ? `team ${nameAndId(a.team.name, a.team.id)}` : "",
    )
    .filter(Boolean);
  const facts = [
    request.requestStatus && `status ${STATUS[request.requestStatus] ?? request.requestStatus}`,
    request.requestor && `asked by ${nameAndId(request.requestor.name, request.requestor.id)}`,
    assignees.length > 0 ? `assigned to ${assignees.join(", ")}` : "not assigned yet",
    request.scheduledOn && `scheduled ${request.scheduledOn}`,
    request.projectId && `project ${request.projectId}`,
    request.createdAt && `created ${utcTime(request.createdAt)}`,
  ].filter(Boolean);
  const title = `${request.displayId ?? "Request"} (${request.id ?? "no id"})`;
  const schema = request.schema?.name ? ` ${request.schema.name}` : "";
  return [
    oneLine(`- **${title}**${schema}${asked.length > 0 ? `: ${asked.join("; ")}` : ""}`),
    `  ${oneLine(facts.join("; "))}`,
  ].join("\n");
}

export const listRequests = defineTool({
  name: "labdata_list_requests",
  title: "List Requests",
  description:
    "Requests (work asked of a person or team, e.g. sequencing) assigned to me or my teams (default), a user or team, or asked by someone.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "workflows",
  input: {
    assignee: personInput("'me' (default), 'anyone', a user id or name.").optional(),
    team: boundedString({ description: "Team name or id.", max: 200 }).optional(),
    requested_by: personInput("'me', a user id or name.").optional(),
    created: createdInput.optional(),
    status: z
      .enum(["open", "requested", "scheduled", "in_progress", "completed", "cancelled", "any"])
      .default("open")
      .describe("'open': requested, scheduled or in progress."),
    ...pagingInputs,
  },
  output: countedPageShape("requests", requestBrief),
  async handler(
    { assignee, team, requested_by, created, status, limit, offset, response_format },
    ctx,
    client: LabdataClient,
  ) {
    const who = assignee ?? (team || requested_by ? "anyone" : "me");
    const me = who === "me" || requested_by === "me" ? await client.me(ctx) : undefined;
    let assignedTo: string[] | undefined;
    let whose = "";
    if (team) {
      const found = await workflows.findTeam(client, team, "labdata_list_requests", ctx);
      assignedTo = [found.id ?? ""];
      whose = `assigned to team ${nameAndId(found.name, found.id)}`;
    } else if (who === "me" && me?.id) {
      const teams = await workflows.teamsOf(client, me.id, ctx);
      assignedTo = [me.id, ...teams.flatMap((t) => (t.id ? [t.id] : []))];
      const teamNames = teams.map((t) => t.name).filter(Boolean);
      whose = `assigned to you (${nameAndId(me.name, me.id)})${teamNames.length > 0 ? ` or your teams (${teamNames.join(", ")})` : ""}`;
    } else if (who !== "anyone" && who !== "me") {
      const assigneeId = await personId(
        client,
        who,
        { tool: "labdata_list_requests", field: "assignee" },
        ctx,
      );
      assignedTo = [assigneeId ?? who];
      whose = `assigned to ${who}`;
    }
    const requestorId =
      requested_by === "me"
        ? (me?.id ?? undefined)
        : await personId(client, requested_by, { tool: "labdata_list_requests", field: "requested_by" }, ctx);
    if (requestorId)
      whose = [whose, `asked by ${requested_by === "me" ? "you" : requested_by}`].filter(Boolean).join(", ");
    const { items, total, exact, complete } = await workflows.listRequests(
      client,
      { assignedTo, requestorId, status, created },
      offset,
      limit,
      ctx,
    );
    const page = countedPage("requests", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      const kind =
        status === "any"
          ? "Requests"
          : `${status === "open" ? "Open" : STATUS[status.toUpperCase()]?.replace(/^./, (c) => c.toUpperCase())} requests`;
      const title = `${kind}${whose ? ` ${whose}` : ""}`;
      const incomplete = !complete && partialNote("request", "status or created");
      if (total === 0) return markdown(`No ${title.charAt(0).toLowerCase()}${title.slice(1)}.`, incomplete);
      if (items.length === 0) return pastTheEnd("requests", page);
      return markdown(
        heading(1, title),
        foundLine("requests", page),
        items.map(requestLine),
        moreLine(page),
        incomplete,
      );
    });
  },
});
