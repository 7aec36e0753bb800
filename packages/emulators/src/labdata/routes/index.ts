// The API below /api/v2 (the token endpoint, which needs no authentication, is served before these).
import { route } from "../../common/routes.js";
import {
  getAssayResult,
  getAssayResultSchema,
  getAssayRun,
  getAssayRunSchema,
  listAssayResultSchemas,
  listAssayRunSchemas,
  listReadableAssayResults,
  listReadableAssayRuns,
} from "./assays.js";
import type { ApiRoute, RouteContext } from "./context.js";
import { createDnaSequence, getDnaSequence, listReadableDnaSequences } from "./dna-sequences.js";
import { addEntryNotes, createEntry, getEntry, listReadableEntries } from "./entries.js";
import { getEntryTemplate, listReadableEntryTemplates } from "./entry-templates.js";
import { listReadableFolders } from "./folders.js";
import { listReadableProjects } from "./projects.js";
import { listReadableRequests, listRequestSchemas } from "./requests.js";
import { getMe } from "./users.js";
import { getWorkflowTask, listReadableWorkflowTasks, listTeams } from "./workflow-tasks.js";

function apiRoute(method: string, template: string, action: string, handle: ApiRoute["handle"]): ApiRoute {
  return { ...route(method, template, handle), action };
}

export const API_ROUTES: readonly ApiRoute[] = [
  apiRoute("GET", "/users/me", "user.me", getMe),
  apiRoute("GET", "/dna-sequences", "dna-sequence.list", listReadableDnaSequences),
  apiRoute("POST", "/dna-sequences", "dna-sequence.create", createDnaSequence),
  apiRoute("GET", "/dna-sequences/:id", "dna-sequence.read", getDnaSequence),
  apiRoute("GET", "/projects", "project.list", listReadableProjects),
  apiRoute("GET", "/folders", "folder.list", listReadableFolders),
  // Notebook, results and work (issue 17, part a).
  apiRoute("GET", "/assay-result-schemas", "assay-result-schema.list", listAssayResultSchemas),
  apiRoute("GET", "/assay-result-schemas/:id", "assay-result-schema.read", getAssayResultSchema),
  apiRoute("GET", "/assay-results", "assay-result.list", listReadableAssayResults),
  apiRoute("GET", "/assay-results/:id", "assay-result.read", getAssayResult),
  apiRoute("GET", "/assay-run-schemas", "assay-run-schema.list", listAssayRunSchemas),
  apiRoute("GET", "/assay-run-schemas/:id", "assay-run-schema.read", getAssayRunSchema),
  apiRoute("GET", "/assay-runs", "assay-run.list", listReadableAssayRuns),
  apiRoute("GET", "/assay-runs/:id", "assay-run.read", getAssayRun),
  apiRoute("GET", "/entries", "entry.list", listReadableEntries),
  apiRoute("POST", "/entries", "entry.create", createEntry),
  apiRoute("GET", "/entries/:id", "entry.read", getEntry),
  apiRoute("POST", "/entries/:id/notes", "entry.add-notes", addEntryNotes),
  apiRoute("GET", "/entry-templates", "entry-template.list", listReadableEntryTemplates),
  apiRoute("GET", "/entry-templates/:id", "entry-template.read", getEntryTemplate),
  apiRoute("GET", "/request-schemas", "request-schema.list", listRequestSchemas),
  apiRoute("GET", "/requests", "request.list", listReadableRequests),
  apiRoute("GET", "/teams", "team.list", listTeams),
  apiRoute("GET", "/workflow-tasks", "workflow-task.list", listReadableWorkflowTasks),
  apiRoute("GET", "/workflow-tasks/:id", "workflow-task.read", getWorkflowTask),
];

export type { ApiRoute, RouteContext };
