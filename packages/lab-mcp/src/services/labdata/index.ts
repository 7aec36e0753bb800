// labdata_mcp: DNA sequences, projects and folders of the lab data platform, under the user's own
// permissions.

import { noAuth } from "../../core/http/auth.js";
import { RemoteClient } from "../../core/http/remote-client.js";
import type { ServiceRuntime } from "../../core/runtime.js";
import { WRITES_TOOLSET } from "../../core/server/toolsets.js";
import type { ServiceDefinition } from "../../core/start/service.js";
import { userConfigFile } from "../../core/start/user-config.js";
import { personNamesKey } from "../../core/state/person-names.js";
import { apiKeyCredential } from "./auth/api-key.js";
import { clientCredentials, clientCredentialsId } from "./auth/client-credentials.js";
import type { LabdataCredential } from "./auth/credential.js";
import { idTokenCredential } from "./auth/oidc.js";
import { PersonKeys, personNameKey } from "./auth/person-keys.js";
import { TokenExchange } from "./auth/token-exchange.js";
import { LabdataClient, labdataBudget } from "./client.js";
import { LabdataCredentialSource } from "./credential-source.js";
import {
  currentUserResource,
  entityResource,
  entryResource,
  sequenceFastaFileResource,
  sequenceFastaResource,
  sequenceGenBankFileResource,
} from "./resources.js";
import {
  checkLabdataSettings,
  LABDATA_SETTINGS,
  type LabdataValues,
  RETIRED_LABDATA_SETTINGS,
} from "./settings.js";
import { archiveEntities } from "./tools/archive-entities.js";
import { createDnaSequence } from "./tools/create-dna-sequence.js";
import { createEntry } from "./tools/create-entry.js";
import { createSequencesBulk } from "./tools/create-sequences-bulk.js";
import { describeWarehouse } from "./tools/describe-warehouse.js";
import { exportDnaSequence } from "./tools/export-dna-sequence.js";
import { getBoxContents } from "./tools/get-box-contents.js";
import { getCurrentUser } from "./tools/get-current-user.js";
import { getEntity } from "./tools/get-entity.js";
import { getEntry } from "./tools/get-entry.js";
import { listAssayResults } from "./tools/list-assay-results.js";
import { listAssayRuns } from "./tools/list-assay-runs.js";
import { listContainers } from "./tools/list-containers.js";
import { listEntities } from "./tools/list-entities.js";
import { listEntries } from "./tools/list-entries.js";
import { listEntryTemplates } from "./tools/list-entry-templates.js";
import { listFolders } from "./tools/list-folders.js";
import { listProjects } from "./tools/list-projects.js";
import { listRegistrySchemas } from "./tools/list-registry-schemas.js";
import { listRequests } from "./tools/list-requests.js";
import { listTasks } from "./tools/list-tasks.js";
import { locate } from "./tools/locate.js";
import { queryWarehouse } from "./tools/query-warehouse.js";
import { searchDnaBases } from "./tools/search-dna-bases.js";
import { searchEntities } from "./tools/search-entities.js";
import { signOut } from "./tools/sign-out.js";
import { unarchiveEntities } from "./tools/unarchive-entities.js";
import { warehouseAddress } from "./warehouse/address.js";

function configuredCredential(values: LabdataValues, runtime: ServiceRuntime): LabdataCredential | undefined {
  const apiKey = values.LABDATA_API_KEY;
  if (apiKey) return apiKeyCredential(apiKey);
  const clientId = values.LABDATA_CLIENT_ID;
  const clientSecret = values.LABDATA_CLIENT_SECRET;
  if (clientId && clientSecret) {
    const baseUrl = values.LABDATA_BASE_URL;
    // The platform counts token requests in the app's window: they take from the app's budget.
    const tokenClient = new RemoteClient({
      baseUrl,
      auth: noAuth,
      timeoutMs: runtime.requestTimeoutMs,
      maxResponseBytes: runtime.maxResponseBytes,
      limiter: labdataBudget(runtime.state, baseUrl, clientCredentialsId(clientId, clientSecret)),
    });
    return clientCredentials({ clientId, clientSecret, tokenClient, secrets: runtime.state.secrets });
  }
  const idToken = values.LABDATA_ID_TOKEN;
  if (idToken) return idTokenCredential({ token: idToken });
  const idTokenFile = values.LABDATA_ID_TOKEN_FILE;
  if (idTokenFile) return idTokenCredential({ file: idTokenFile });
  return undefined;
}

/** Token exchange at the identity provider people sign in with, when the operator set it up. */
function tokenExchange(values: LabdataValues, runtime: ServiceRuntime): TokenExchange | undefined {
  const audience = values.LABDATA_TOKEN_EXCHANGE_AUDIENCE;
  const clientId = values.LABDATA_TOKEN_EXCHANGE_CLIENT_ID;
  const secret = values.LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET;
  const secretFile = values.LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE;
  // checkLabdataSettings made these complete and team mode (MCP_AUTH_ISSUER) a condition.
  if (!audience || !clientId || !runtime.authIssuer || !(secret || secretFile)) return undefined;
  return new TokenExchange({
    issuer: runtime.authIssuer,
    audience,
    clientId,
    clientSecret: secret ? { value: secret } : { file: secretFile as string },
    baseUrl: values.LABDATA_BASE_URL,
    secrets: runtime.state.secrets,
    timeoutMs: runtime.requestTimeoutMs,
  });
}

const labdata = {
  id: "labdata",
  serverName: "labdata_mcp",
  version: "0.1.0",
  instructions:
    "Find, read and export DNA sequences on the lab data platform, with the user's own permissions. " +
    "Read notebook entries, assay runs and results, workflow tasks and requests, projects and folders. " +
    "Search the registry (every entity type, by name, alias, registry id or bases) and find where samples are " +
    "stored (containers, boxes, plates, locations). " +
    "For counts, averages, maxima and joins across many records, query the warehouse in SQL " +
    "(labdata_describe_warehouse, then labdata_query_warehouse) rather than paging lists. " +
    "Start with labdata_get_current_user if anything fails with an authentication error.",
  settings: LABDATA_SETTINGS,
  toolsets: {
    users: "Who you are signed in as",
    sequences: "DNA and AA sequences, oligos, custom entities: list by type, read, export, search by bases",
    search: "Find any entity by name, alias or registry id, and where samples are stored",
    notebook: "Notebook entries: list and read",
    projects: "Projects and folders",
    results: "Assay runs and results, with their schemas' fields and units",
    workflows: "Workflow tasks and requests",
    inventory: "Storage locations, boxes and plates, containers and quantities",
    warehouse: "The tenant's data warehouse: counts, averages and joins in one read-only SQL query",
    [WRITES_TOOLSET]:
      "Create sequences and notebook entries (with the registry schemas and entry templates they take), " +
      "archive and unarchive entities",
  },
  // No defaultToolsets: every toolset but writes is served by default (core/server/toolsets.ts).
  tools: [
    getCurrentUser,
    signOut,
    listEntities,
    exportDnaSequence,
    listProjects,
    listFolders,
    createDnaSequence,
    // Notebook, results, work.
    listEntries,
    getEntry,
    listEntryTemplates,
    createEntry,
    listAssayRuns,
    listAssayResults,
    listTasks,
    listRequests,
    // AA sequences and oligos, the registry, inventory.
    searchEntities,
    getEntity,
    searchDnaBases,
    listRegistrySchemas,
    locate,
    getBoxContents,
    listContainers,
    createSequencesBulk,
    archiveEntities,
    unarchiveEntities,
    // The warehouse: analytics in one SQL query.
    describeWarehouse,
    queryWarehouse,
  ],
  resources: [
    sequenceFastaFileResource,
    sequenceGenBankFileResource,
    sequenceFastaResource,
    currentUserResource,
    entryResource,
    entityResource,
  ],
  briefStructured: true,
  retiredSettings: RETIRED_LABDATA_SETTINGS,
  checkSettings: checkLabdataSettings,
  createService(values, runtime) {
    const baseUrl = values.LABDATA_BASE_URL;
    const store = {
      baseUrl,
      file: values.LABDATA_CREDENTIALS_FILE ?? userConfigFile("labdata.json", runtime.env),
    };
    const source = new LabdataCredentialSource({
      configured: configuredCredential(values, runtime),
      exchange: tokenExchange(values, runtime),
      store,
      personKeys: new PersonKeys(runtime.state.secrets, baseUrl, personNameKey(runtime.stateSettings?.key)),
      // A key typed on a page is checked with the platform (users/me) before it is used or kept.
      verify: (credential, scope) => client.me({ ...scope, credential }),
    });
    const client: LabdataClient = new LabdataClient(
      baseUrl,
      runtime.requestTimeoutMs,
      source,
      runtime.state,
      runtime.maxResponseBytes,
      {
        address: warehouseAddress(values.LABDATA_WAREHOUSE_URL, baseUrl),
        loginNameKey: personNamesKey(runtime.stateSettings?.key, "labdata warehouse logins"),
      },
    );
    return client;
  },
  credentials: (client) => client.credentials,
} satisfies ServiceDefinition<LabdataClient, typeof LABDATA_SETTINGS.shape>;

export const labdataService: ServiceDefinition<LabdataClient, typeof LABDATA_SETTINGS.shape> = labdata;

/** The names of labdata_mcp's tools as literal types: the keys a table of every tool must have. */
export type LabdataToolName = (typeof labdata.tools)[number]["name"];
