// The API below /api/v2 (the token endpoint, which needs no authentication, is served before these).
import { route } from "../../common/routes.js";
import { changeArchive } from "./archive.js";
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
import { bulkCreateDnaSequences, getTask } from "./bulk-create.js";
import type { ApiRoute, RouteContext } from "./context.js";
import { createDnaSequence, getDnaSequence, listReadableDnaSequences } from "./dna-sequences.js";
import { getEntity, listEntities } from "./entities.js";
import { createEntry, getEntry, listReadableEntries } from "./entries.js";
import { getEntryTemplate, listReadableEntryTemplates } from "./entry-templates.js";
import { listReadableFolders } from "./folders.js";
import {
  getBox,
  getContainer,
  getLocation,
  getPlate,
  listBoxContents,
  listBoxes,
  listContainers,
  listLocations,
  listPlates,
} from "./inventory.js";
import { listReadableProjects } from "./projects.js";
import { bulkGetRegisteredEntities, listEntitySchemas, listRegistries } from "./registry.js";
import { listReadableRequests, listRequestSchemas } from "./requests.js";
import { searchDnaSequenceBases } from "./search-bases.js";
import { getMe, listUsers } from "./users.js";
import { createWarehouseCredentials, listWarehouseCredentials } from "./warehouse-credentials.js";
import { getWorkflowTask, listReadableWorkflowTasks, listTeams } from "./workflow-tasks.js";

function apiRoute(method: string, template: string, action: string, handle: ApiRoute["handle"]): ApiRoute {
  return { ...route(method, template, handle), action };
}

export const API_ROUTES: readonly ApiRoute[] = [
  apiRoute("GET", "/users/me", "user.me", getMe),
  apiRoute("GET", "/users", "user.list", listUsers),
  apiRoute("GET", "/dna-sequences", "dna-sequence.list", listReadableDnaSequences),
  apiRoute("POST", "/dna-sequences", "dna-sequence.create", createDnaSequence),
  apiRoute("GET", "/dna-sequences/:id", "dna-sequence.read", getDnaSequence),
  apiRoute("GET", "/projects", "project.list", listReadableProjects),
  apiRoute("GET", "/folders", "folder.list", listReadableFolders),
  // Notebook, results and work.
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
  apiRoute("GET", "/entry-templates", "entry-template.list", listReadableEntryTemplates),
  apiRoute("GET", "/entry-templates/:id", "entry-template.read", getEntryTemplate),
  apiRoute("GET", "/request-schemas", "request-schema.list", listRequestSchemas),
  apiRoute("GET", "/requests", "request.list", listReadableRequests),
  apiRoute("GET", "/teams", "team.list", listTeams),
  apiRoute("GET", "/workflow-tasks", "workflow-task.list", listReadableWorkflowTasks),
  apiRoute("GET", "/workflow-tasks/:id", "workflow-task.read", getWorkflowTask),
  // Registry, other entity kinds, inventory, bulk writes.
  apiRoute("POST", "/dna-sequences:search-bases", "dna-sequence.search-bases", searchDnaSequenceBases),
  apiRoute("POST", "/dna-sequences:bulk-create", "dna-sequence.bulk-create", bulkCreateDnaSequences),
  apiRoute("POST", "/dna-sequences:archive", "dna-sequence.archive", changeArchive("dna_sequence", true)),
  apiRoute(
    "POST",
    "/dna-sequences:unarchive",
    "dna-sequence.unarchive",
    changeArchive("dna_sequence", false),
  ),
  apiRoute("GET", "/aa-sequences", "aa-sequence.list", listEntities("aa_sequence")),
  apiRoute("GET", "/aa-sequences/:id", "aa-sequence.read", getEntity("aa_sequence")),
  apiRoute("POST", "/aa-sequences:archive", "aa-sequence.archive", changeArchive("aa_sequence", true)),
  apiRoute("POST", "/aa-sequences:unarchive", "aa-sequence.unarchive", changeArchive("aa_sequence", false)),
  apiRoute("GET", "/dna-oligos", "dna-oligo.list", listEntities("dna_oligo")),
  apiRoute("GET", "/dna-oligos/:id", "dna-oligo.read", getEntity("dna_oligo")),
  apiRoute("POST", "/dna-oligos:archive", "dna-oligo.archive", changeArchive("dna_oligo", true)),
  apiRoute("POST", "/dna-oligos:unarchive", "dna-oligo.unarchive", changeArchive("dna_oligo", false)),
  apiRoute("GET", "/rna-oligos", "rna-oligo.list", listEntities("rna_oligo")),
  apiRoute("GET", "/rna-oligos/:id", "rna-oligo.read", getEntity("rna_oligo")),
  apiRoute("POST", "/rna-oligos:archive", "rna-oligo.archive", changeArchive("rna_oligo", true)),
  apiRoute("POST", "/rna-oligos:unarchive", "rna-oligo.unarchive", changeArchive("rna_oligo", false)),
  apiRoute("GET", "/custom-entities", "custom-entity.list", listEntities("custom_entity")),
  apiRoute("GET", "/custom-entities/:id", "custom-entity.read", getEntity("custom_entity")),
  apiRoute("POST", "/custom-entities:archive", "custom-entity.archive", changeArchive("custom_entity", true)),
  apiRoute(
    "POST",
    "/custom-entities:unarchive",
    "custom-entity.unarchive",
    changeArchive("custom_entity", false),
  ),
  apiRoute("GET", "/registries", "registry.list", listRegistries),
  apiRoute(
    "GET",
    "/registries/:id/registered-entities:bulk-get",
    "registry.bulk-get",
    bulkGetRegisteredEntities,
  ),
  apiRoute("GET", "/entity-schemas", "entity-schema.list", listEntitySchemas),
  apiRoute("GET", "/tasks/:id", "task.read", getTask),
  apiRoute("GET", "/locations", "location.list", listLocations),
  apiRoute("GET", "/locations/:id", "location.read", getLocation),
  apiRoute("GET", "/boxes", "box.list", listBoxes),
  apiRoute("GET", "/boxes/:id", "box.read", getBox),
  apiRoute("GET", "/boxes/:id/contents", "box.contents", listBoxContents),
  apiRoute("GET", "/plates", "plate.list", listPlates),
  apiRoute("GET", "/plates/:id", "plate.read", getPlate),
  apiRoute("GET", "/containers", "container.list", listContainers),
  apiRoute("GET", "/containers/:id", "container.read", getContainer),
  // The warehouse: logins minted per caller.
  apiRoute("POST", "/warehouse-credentials", "warehouse-credentials.create", createWarehouseCredentials),
  apiRoute("GET", "/users/:id/warehouse-credentials", "warehouse-credentials.list", listWarehouseCredentials),
];

export type { ApiRoute, RouteContext };
