// GET /api/v2/workflow-tasks (and by id): the tasks of workflows whose folder the caller may read,
// by assignee, responsible team, status, workflow or schema. GET /api/v2/teams: the tenant's teams, or
// those with given members.

import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { forbidden, notFound } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { mayOnFolder } from "../notebook/access.js";
import type { WorkflowTask } from "../notebook/model.js";
import { commaList, rangeParameter } from "../notebook/query.js";
import { taskToWire } from "../notebook/wire.js";
import type { Team } from "../state/model.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

/** "null" in an id list matches a task without one. */
const inList = (wanted: Set<string> | undefined, value: string | null): boolean =>
  !wanted || wanted.has(value ?? "null");

function readableTask(ctx: RouteContext, task: WorkflowTask): boolean {
  const group = ctx.tenant.notebook.taskGroups.get(task.groupId);
  return group !== undefined && mayOnFolder(ctx.tenant, ctx.principal.actor, group.folderId, "read");
}

export function listReadableWorkflowTasks(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const filters = {
    ids: commaList(params, "ids"),
    displayIds: commaList(params, "displayIds"),
    groups: commaList(params, "workflowTaskGroupIds"),
    statuses: commaList(params, "statusIds"),
    assignees: commaList(params, "assigneeIds"),
    teams: commaList(params, "responsibleTeamIds"),
    creators: commaList(params, "creatorIds"),
  };
  const schemaId = params.get("schemaId") ?? undefined;
  const modified = rangeParameter(params, "modifiedAt");
  const scope = [...params.entries()].filter(([key]) => !["pageSize", "nextToken"].includes(key)).sort();
  const query = parseListQuery(params, listScope(ctx, "workflow-tasks", scope));
  const matches = [];
  for (const task of ctx.tenant.notebook.tasks.values()) {
    if (!readableTask(ctx, task)) continue;
    if (!inList(filters.ids, task.id) || !inList(filters.displayIds, task.displayId)) continue;
    if (!inList(filters.groups, task.groupId) || !inList(filters.statuses, task.statusId)) continue;
    if (!inList(filters.assignees, task.assigneeId) || !inList(filters.teams, task.responsibleTeamId))
      continue;
    if (!inList(filters.creators, task.creatorId)) continue;
    if (schemaId !== undefined && task.schemaId !== schemaId) continue;
    if (modified && !modified(task.modifiedAt)) continue;
    const listable = {
      item: task,
      id: task.id,
      name: task.displayId,
      modifiedAt: task.modifiedAt,
      archiveReason: task.archiveReason,
    };
    if (matchesQuery(listable, query)) matches.push(listable);
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("workflowTasks", page, ({ item }) => JSON.stringify(taskToWire(ctx.tenant, item)));
}

export function getWorkflowTask(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const task = ctx.tenant.notebook.tasks.get(id);
  if (!task) throw notFound(`No workflow task ${id}`);
  if (!readableTask(ctx, task)) throw forbidden(`You cannot read workflow task ${id}`);
  return jsonResponse(200, taskToWire(ctx.tenant, task));
}

export function listTeams(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const ids = commaList(params, "ids");
  const members = commaList(params, "hasMembers");
  const query = parseListQuery(
    params,
    listScope(ctx, "teams", [params.get("ids"), params.get("hasMembers")]),
  );
  const matches: Array<Team & { modifiedAt: number; archiveReason: null }> = [];
  for (const team of ctx.tenant.teams.values()) {
    if (ids && !ids.has(team.id)) continue;
    // Members are the users with a membership on the team itself.
    if (members && ![...members].every((userId) => ctx.tenant.memberships.get(userId)?.has(team.id)))
      continue;
    const listable = { ...team, modifiedAt: team.createdAt, archiveReason: null };
    if (matchesQuery(listable, query)) matches.push(listable);
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("teams", page, (team) => {
    const organization = ctx.tenant.organizations.get(team.organizationId);
    return JSON.stringify({
      id: team.id,
      name: team.name,
      ...(organization
        ? { organization: { id: organization.id, name: organization.name, handle: organization.handle } }
        : {}),
    });
  });
}
