// labdata_mcp: DNA sequences, projects and folders of the lab data platform, under the user's own
// permissions.

import { noAuth } from "../../core/http/auth.js";
import { RemoteClient } from "../../core/http/remote-client.js";
import type { ServiceDefinition } from "../../core/server.js";
import { userConfigFile } from "../../core/user-config.js";
import { apiKeyCredential } from "./auth/api-key.js";
import { clientCredentials } from "./auth/client-credentials.js";
import type { LabdataCredential } from "./auth/credential.js";
import { idTokenCredential } from "./auth/oidc.js";
import { LabdataApi } from "./client.js";
import { LabdataCredentialSource } from "./credential-source.js";
import {
  currentUserResource,
  entryResource,
  sequenceFastaFileResource,
  sequenceFastaResource,
  sequenceGenBankFileResource,
} from "./resources.js";
import { checkLabdataSettings, LABDATA_SETTINGS, type LabdataValues } from "./settings.js";
import { addEntryNote } from "./tools/add-entry-note.js";
import { createDnaSequence } from "./tools/create-dna-sequence.js";
import { createEntry } from "./tools/create-entry.js";
import { exportDnaSequence } from "./tools/export-dna-sequence.js";
import { getCurrentUser } from "./tools/get-current-user.js";
import { getDnaSequence } from "./tools/get-dna-sequence.js";
import { getEntry } from "./tools/get-entry.js";
import { listAssayResults } from "./tools/list-assay-results.js";
import { listAssayRuns } from "./tools/list-assay-runs.js";
import { listDnaSequences } from "./tools/list-dna-sequences.js";
import { listEntries } from "./tools/list-entries.js";
import { listEntryTemplates } from "./tools/list-entry-templates.js";
import { listFolders } from "./tools/list-folders.js";
import { listProjects } from "./tools/list-projects.js";
import { listRequests } from "./tools/list-requests.js";
import { listTasks } from "./tools/list-tasks.js";

function configuredCredential(
  values: LabdataValues,
  tokenClient: RemoteClient,
): LabdataCredential | undefined {
  const apiKey = values.LABDATA_API_KEY;
  if (apiKey) return apiKeyCredential(apiKey);
  const clientId = values.LABDATA_CLIENT_ID;
  const clientSecret = values.LABDATA_CLIENT_SECRET;
  if (clientId && clientSecret) return clientCredentials({ clientId, clientSecret, tokenClient });
  const idToken = values.LABDATA_ID_TOKEN;
  if (idToken) return idTokenCredential({ token: idToken });
  const idTokenFile = values.LABDATA_ID_TOKEN_FILE;
  if (idTokenFile) return idTokenCredential({ file: idTokenFile });
  return undefined;
}

export const labdataService: ServiceDefinition<LabdataApi, typeof LABDATA_SETTINGS.shape> = {
  id: "labdata",
  serverName: "labdata_mcp",
  version: "0.1.0",
  instructions:
    "Find, read, export and create DNA sequences on the lab data platform, with the user's own permissions. " +
    "Read and write notebook entries, read assay runs and results, and list workflow tasks and requests. " +
    "Start with labdata_get_current_user if anything fails with an authentication error.",
  settings: LABDATA_SETTINGS,
  toolsets: {
    users: "Who you are signed in as",
    sequences: "DNA sequences: list, read, export, create",
    projects: "Projects and folders, to find ids",
    notebook: "Notebook entries and entry templates: list, read, create, add notes",
    results: "Assay runs and results, with their schemas' fields and units",
    workflows: "Workflow tasks and requests assigned to you or a team",
  },
  tools: [
    getCurrentUser,
    listDnaSequences,
    getDnaSequence,
    exportDnaSequence,
    listProjects,
    listFolders,
    createDnaSequence,
    listEntries,
    getEntry,
    listEntryTemplates,
    createEntry,
    addEntryNote,
    listAssayRuns,
    listAssayResults,
    listTasks,
    listRequests,
  ],
  resources: [
    sequenceFastaFileResource,
    sequenceGenBankFileResource,
    sequenceFastaResource,
    currentUserResource,
    entryResource,
  ],
  checkSettings: checkLabdataSettings,
  createService(values, core) {
    const baseUrl = values.LABDATA_BASE_URL;
    const tokenClient = new RemoteClient({
      baseUrl,
      auth: noAuth,
      timeoutMs: core.requestTimeoutMs,
      maxResponseBytes: core.maxResponseBytes,
    });
    const store = {
      baseUrl,
      file: values.LABDATA_CREDENTIALS_FILE ?? userConfigFile("labdata.json"),
    };
    const holder = new LabdataCredentialSource(configuredCredential(values, tokenClient), store);
    return new LabdataApi(baseUrl, core.requestTimeoutMs, holder, core.maxResponseBytes);
  },
};
