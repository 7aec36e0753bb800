// @ts-check
// One typical successful call of every tool of every server, on the emulators' demo data: the ids an
// agent would have found first. The one table the reliability suites, the sandbox test, the contract
// test, the wire-ratio test and the bench (bench/context-cost.bench.mjs) call the tools from. A .mjs
// file so that the bench runs it on plain Node; typed by tsc (checkJs here), keyed by the services'
// tool names as literal types, so that a tool without a sample call, or a call of a tool that is
// gone, does not compile. In each service's table reads come first, then writes, signing out last.

/**
 * @import { ExampleToolName } from "../../packages/lab-mcp/src/services/example/index.js"
 * @import { LabdataToolName } from "../../packages/lab-mcp/src/services/labdata/index.js"
 * @import { ProtocolsToolName } from "../../packages/lab-mcp/src/services/protocols/index.js"
 */

/**
 * What the lab platform's calls take, found by whoever runs them (from the demo data, or through the
 * tools themselves in the sandbox).
 * @typedef {object} LabdataIds
 * @property {string} projectId a project the user reads (the demo's Plasmid Library)
 * @property {string} folderId a folder the user may write to (Backbones)
 * @property {string} sequenceId a DNA sequence the user may archive and unarchive
 * @property {string} containerId a container holding a sample
 * @property {string} boxId a box with containers
 * @property {string} entryId a notebook entry
 * @property {string} bases bases of a registered sequence, for the bases search
 */

/**
 * What the repository's calls take. `draftId` is filled in by protocols_create_draft's call (its
 * `keep`); where nothing could create one (a client token cannot write) the draft tools are given the
 * sample protocol, so that their refusal is about writing, not about their input.
 * @typedef {object} ProtocolsIds
 * @property {string} protocolId a public protocol
 * @property {string} [draftId]
 */

/**
 * @template Ids
 * @typedef {object} SampleCall
 * @property {(ids: Ids) => Record<string, unknown>} arguments
 * @property {(ids: Ids, result: { structuredContent?: Record<string, unknown> }) => void} [keep]
 *   reads what a later call needs from the answer (e.g. the new draft's id) into `ids`
 * @property {true} [signsIn] opens a sign-in a person finishes in a browser: a runner that cannot play
 *   the browser (or signs in its own way first) leaves it out
 */

/** @satisfies {Record<ExampleToolName, SampleCall<{}>>} */
export const EXAMPLE_SAMPLES = {
  example_search_users: { arguments: () => ({ query: "chen", limit: 5 }) },
};

/** @satisfies {Record<LabdataToolName, SampleCall<LabdataIds>>} */
export const LABDATA_SAMPLES = {
  labdata_get_current_user: { arguments: () => ({}) },
  labdata_list_projects: { arguments: () => ({}) },
  labdata_list_folders: { arguments: (ids) => ({ project_id: ids.projectId }) },
  labdata_list_entities: { arguments: (ids) => ({ project_id: ids.projectId, limit: 5 }) },
  labdata_get_entity: { arguments: (ids) => ({ id: ids.sequenceId }) },
  labdata_export_dna_sequence: { arguments: (ids) => ({ id: ids.sequenceId, format: "genbank" }) },
  labdata_search_entities: { arguments: () => ({ query: "pLKO" }) },
  labdata_search_dna_bases: { arguments: (ids) => ({ bases: ids.bases }) },
  labdata_list_registry_schemas: { arguments: () => ({}) },
  labdata_locate: { arguments: (ids) => ({ id: ids.containerId }) },
  labdata_get_box_contents: { arguments: (ids) => ({ id: ids.boxId }) },
  labdata_list_containers: { arguments: () => ({ name: "glycerol" }) },
  labdata_list_entries: { arguments: () => ({ limit: 5 }) },
  labdata_get_entry: { arguments: (ids) => ({ id: ids.entryId }) },
  labdata_list_entry_templates: { arguments: () => ({}) },
  labdata_list_assay_runs: { arguments: () => ({ limit: 5 }) },
  labdata_list_assay_results: { arguments: () => ({ run: "12" }) },
  labdata_list_tasks: { arguments: () => ({}) },
  labdata_list_requests: { arguments: () => ({}) },
  labdata_describe_warehouse: { arguments: () => ({ search: "container" }) },
  labdata_query_warehouse: {
    // An answer as agents ask them: a few rows, not one cell (whose envelope outweighs its text).
    arguments: () => ({
      sql: "SELECT p.name AS project, count(*) AS sequences FROM dna_sequence s JOIN project p ON p.id = s.project_id GROUP BY 1 ORDER BY 2 DESC",
    }),
  },
  labdata_create_dna_sequence: {
    arguments: (ids) => ({
      name: "sample-insert",
      bases: "ATGGCTAGCAAAGGAGAAGAACTTTTCACTGGAGTTGTC",
      folder_id: ids.folderId,
    }),
  },
  labdata_create_sequences_bulk: {
    arguments: (ids) => ({ text: ">sample-bulk\nATGGCTAGCAAAGGAGAA\n", folder_id: ids.folderId }),
  },
  labdata_create_entry: { arguments: (ids) => ({ name: "sample-entry", folder_id: ids.folderId }) },
  labdata_archive_entities: {
    arguments: (ids) => ({ type: "dna_sequence", ids: [ids.sequenceId], reason: "Other" }),
  },
  labdata_unarchive_entities: { arguments: (ids) => ({ type: "dna_sequence", ids: [ids.sequenceId] }) },
  labdata_sign_out: { arguments: () => ({}) },
};

/** @param {ProtocolsIds} ids */
const draft = (ids) => ids.draftId ?? ids.protocolId;

/** @satisfies {Record<ProtocolsToolName, SampleCall<ProtocolsIds>>} */
export const PROTOCOLS_SAMPLES = {
  protocols_search: { arguments: () => ({ keyword: "western blot", limit: 5 }) },
  protocols_get_protocol: { arguments: (ids) => ({ protocol: ids.protocolId }) },
  protocols_list_my_protocols: { arguments: () => ({ limit: 5 }) },
  protocols_list_workspaces: { arguments: () => ({}) },
  protocols_download_pdf: { arguments: (ids) => ({ protocol: ids.protocolId }) },
  protocols_get_profile: { arguments: () => ({}) },
  protocols_sign_in: { arguments: () => ({}), signsIn: true },
  protocols_create_draft: {
    arguments: () => ({ title: "Buffer exchange", steps: [{ text: "Equilibrate the column." }] }),
    keep: (ids, result) => {
      ids.draftId = String(result.structuredContent?.id);
    },
  },
  protocols_update_draft: {
    arguments: (ids) => ({ protocol: draft(ids), description: "Swap the buffer of a sample." }),
  },
  protocols_set_steps: {
    arguments: (ids) => ({
      protocol: draft(ids),
      steps: [{ text: "Equilibrate the column." }, { text: "Load the sample." }],
    }),
  },
  protocols_insert_step: {
    arguments: (ids) => ({ protocol: draft(ids), after_step: 2, text: "Collect the eluate." }),
  },
  protocols_edit_step: {
    arguments: (ids) => ({ protocol: draft(ids), step_number: 1, text: "Equilibrate twice." }),
  },
  protocols_delete_step: { arguments: (ids) => ({ protocol: draft(ids), step_number: 3 }) },
  protocols_sign_out: { arguments: () => ({}) },
};

/**
 * A service's sample calls in order, each with its arguments for `ids` (read when the call is made,
 * so that a call sees what an earlier one kept): what a runner of every tool iterates.
 * @template Ids
 * @param {Record<string, SampleCall<Ids>>} samples
 * @param {Ids} ids
 */
export function sampleCalls(samples, ids) {
  return Object.entries(samples).map(([name, sample]) => ({
    name,
    arguments: () => sample.arguments(ids),
    /** @param {{ structuredContent?: Record<string, unknown> }} result */
    keep: (result) => sample.keep?.(ids, result),
    signsIn: sample.signsIn === true,
  }));
}

/**
 * Each tool's sample arguments for `ids`, by name (for suites that call the tools in their own order).
 * @template Ids
 * @param {Record<string, SampleCall<Ids>>} samples
 * @param {Ids} ids
 * @returns {Record<string, Record<string, unknown>>}
 */
export function sampleArguments(samples, ids) {
  return Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, sample.arguments(ids)]));
}

/**
 * The lab platform's sample ids in its emulator's demo data; `sequenceId` one the caller may archive.
 * @param {import("../../packages/emulators/src/labdata/demo/tenants.js").DemoData} demo
 * @param {string} sequenceId
 * @returns {LabdataIds}
 */
export function labdataDemoIds(demo, sequenceId) {
  return {
    projectId: String(demo.projects["Plasmid Library"]),
    folderId: String(demo.folders.Backbones),
    sequenceId,
    containerId: demo.registry.glycerolStockId,
    boxId: demo.registry.glycerolBoxId,
    entryId: demo.notebook.cas9ScreenEntryId,
    bases: demo.registry.shRna3Insert,
  };
}
