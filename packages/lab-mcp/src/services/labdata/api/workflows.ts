// Workflow tasks, and the teams they may be the responsibility of.

import { InvalidInputError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataApi, LabdataScope } from "../client.js";
import { type LabTeam, teamSchema, type WorkflowTask, workflowTaskSchema } from "../notebook-types.js";
import { listSchema } from "../types.js";
import { filteredList } from "./filtered-list.js";

export type TaskStatusFilter =
  | "open"
  | "pending"
  | "in_progress"
  | "completed"
  | "failed"
  | "cancelled"
  | "any";

const OPEN = new Set(["PENDING", "IN_PROGRESS"]);

/** The team named `nameOrId` (its id, or its name in any case), among the first 100 teams. */
export async function findTeam(
  api: LabdataApi,
  nameOrId: string,
  tool: string,
  ctx: LabdataScope,
): Promise<LabTeam> {
  const { body } = await api.send(
    {
      path: apiPath`api/v2/teams`,
      query: { pageSize: 100, sort: "name:asc" },
      schema: listSchema("teams", teamSchema),
    },
    ctx,
  );
  const teams = (body.teams as LabTeam[] | undefined) ?? [];
  const wanted = nameOrId.toLowerCase();
  const team = teams.find((t) => t.id === nameOrId) ?? teams.find((t) => t.name?.toLowerCase() === wanted);
  if (!team?.id) {
    const known = teams
      .map((t) => t.name)
      .filter(Boolean)
      .join(", ");
    throw new InvalidInputError(
      `Error: Invalid input for ${tool}: team: no team '${nameOrId}'.${known ? ` Teams: ${known}.` : ""}`,
    );
  }
  return team;
}

export interface TaskFilters {
  assigneeId?: string;
  teamId?: string;
  status: TaskStatusFilter;
}

export function listTasks(
  api: LabdataApi,
  filters: TaskFilters,
  offset: number,
  limit: number,
  ctx: LabdataScope,
) {
  const { status } = filters;
  const keep =
    status === "any"
      ? undefined
      : (task: WorkflowTask) => {
          const type = task.status?.statusType ?? "";
          return status === "open" ? OPEN.has(type) : type === status.toUpperCase();
        };
  const query = {
    assigneeIds: filters.assigneeId,
    responsibleTeamIds: filters.teamId,
    archiveReason: "NOT_ARCHIVED",
  };
  return filteredList(
    api,
    [{ key: "workflowTasks", path: apiPath`api/v2/workflow-tasks`, itemSchema: workflowTaskSchema, query }],
    keep,
    offset,
    limit,
    ctx,
  );
}
