// Workflow tasks, and the teams they may be the responsibility of.

import { InvalidInputError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { type CreatedSpan, createdSeconds } from "../created-filters.js";
import {
  type LabRequest,
  type LabTeam,
  labRequestSchema,
  requestSchemaSummary,
  teamSchema,
  type WorkflowTask,
  workflowTaskSchema,
} from "../records/notebook.js";
import { listSchema } from "../records/platform.js";
import { filteredList, type ListSource } from "./filtered-list.js";

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
  client: LabdataClient,
  nameOrId: string,
  tool: string,
  ctx: LabdataCall,
): Promise<LabTeam> {
  const { body } = await client.send(
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
  creatorId?: string;
  status: TaskStatusFilter;
}

export function listTasks(
  client: LabdataClient,
  filters: TaskFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
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
    creatorIds: filters.creatorId,
    archiveReason: "NOT_ARCHIVED",
  };
  return filteredList(
    client,
    [{ key: "workflowTasks", path: apiPath`api/v2/workflow-tasks`, itemSchema: workflowTaskSchema, query }],
    keep,
    offset,
    limit,
    ctx,
  );
}

/** The teams `userId` is a member of (the first 100). */
export async function teamsOf(client: LabdataClient, userId: string, ctx: LabdataCall): Promise<LabTeam[]> {
  const { body } = await client.send(
    {
      path: apiPath`api/v2/teams`,
      query: { pageSize: 100, hasMembers: userId },
      schema: listSchema("teams", teamSchema),
    },
    ctx,
  );
  return (body.teams as LabTeam[] | undefined) ?? [];
}

export type RequestStatusFilter =
  | "open"
  | "requested"
  | "scheduled"
  | "in_progress"
  | "completed"
  | "cancelled"
  | "any";

const OPEN_REQUESTS = new Set(["REQUESTED", "SCHEDULED", "IN_PROGRESS"]);

export interface RequestFilters {
  created?: CreatedSpan;
  /** Assigned to any of these users or teams. */
  assignedTo?: string[];
  requestorId?: string;
  status: RequestStatusFilter;
}

/** Requests of every request schema (the platform lists them one schema at a time). */
export async function listRequests(
  client: LabdataClient,
  filters: RequestFilters,
  offset: number,
  limit: number,
  ctx: LabdataCall,
) {
  const { body } = await client.send(
    {
      path: apiPath`api/v2/request-schemas`,
      query: { pageSize: 100 },
      schema: listSchema("requestSchemas", requestSchemaSummary),
    },
    ctx,
  );
  const schemas = (body.requestSchemas as Array<{ id?: string | null }> | undefined) ?? [];
  const { status } = filters;
  const oneStatus = status !== "open" && status !== "any" ? status.toUpperCase() : undefined;
  const sources: ListSource<LabRequest>[] = schemas.flatMap((schema) =>
    schema.id
      ? [
          {
            key: "requests",
            path: apiPath`api/v2/requests`,
            itemSchema: labRequestSchema,
            query: {
              schemaId: schema.id,
              requestStatus: oneStatus,
              minCreatedTime: createdSeconds(filters.created).min,
              maxCreatedTime: createdSeconds(filters.created).max,
            },
          },
        ]
      : [],
  );
  const wanted = filters.assignedTo ? new Set(filters.assignedTo) : undefined;
  const keep = (request: LabRequest) =>
    (status !== "open" || OPEN_REQUESTS.has(request.requestStatus ?? "")) &&
    (!filters.requestorId || request.requestor?.id === filters.requestorId) &&
    (!wanted ||
      (request.assignees ?? []).some((a) => wanted.has(a.user?.id ?? "") || wanted.has(a.team?.id ?? "")));
  return filteredList(client, sources, keep, offset, limit, ctx);
}
