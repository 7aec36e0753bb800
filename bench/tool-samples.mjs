// One typical successful call of every tool of every server, against the bench's emulators with their
// demo data: the ids an agent would have found first. Reads first, then writes, signing out last.
// A call's arguments may be a function of what earlier calls answered (`found`: e.g. the new draft's id).
// Not a benchmark itself (bench/run.mjs runs only *.bench.mjs files).

export const exampleCalls = () => [{ name: "example_search_users", arguments: { query: "chen" } }];

export function labdataCalls(demo, sequenceId) {
  const project = demo.projects["Plasmid Library"];
  const folder = demo.folders.Backbones;
  return [
    { name: "labdata_get_current_user", arguments: {} },
    { name: "labdata_list_projects", arguments: {} },
    { name: "labdata_list_folders", arguments: { project_id: project } },
    { name: "labdata_list_entities", arguments: { project_id: project, limit: 5 } },
    { name: "labdata_get_entity", arguments: { id: sequenceId } },
    { name: "labdata_export_dna_sequence", arguments: { id: sequenceId, format: "genbank" } },
    { name: "labdata_search_entities", arguments: { query: "pLKO" } },
    { name: "labdata_search_dna_bases", arguments: { bases: demo.registry.shRna3Insert } },
    { name: "labdata_list_registry_schemas", arguments: {} },
    { name: "labdata_locate", arguments: { id: demo.registry.shRnaPlasmids["pLKO-shRNA-3"] } },
    { name: "labdata_get_box_contents", arguments: { id: demo.registry.glycerolBoxId } },
    { name: "labdata_list_containers", arguments: { name: "glycerol" } },
    { name: "labdata_list_entries", arguments: { limit: 5 } },
    { name: "labdata_get_entry", arguments: { id: demo.notebook.cas9ScreenEntryId } },
    { name: "labdata_list_entry_templates", arguments: {} },
    { name: "labdata_list_assay_runs", arguments: { limit: 5 } },
    { name: "labdata_list_assay_results", arguments: { run: "12" } },
    { name: "labdata_list_tasks", arguments: {} },
    { name: "labdata_list_requests", arguments: {} },
    {
      name: "labdata_create_dna_sequence",
      arguments: {
        name: "bench-insert",
        bases: "ATGGCTAGCAAAGGAGAAGAACTTTTCACTGGAGTTGTC",
        folder_id: folder,
      },
    },
    {
      name: "labdata_create_sequences_bulk",
      arguments: { text: ">bench-bulk\nATGGCTAGCAAAGGAGAA\n", folder_id: folder },
    },
    { name: "labdata_create_entry", arguments: { name: "bench-entry", folder_id: folder } },
    {
      name: "labdata_archive_entities",
      arguments: { type: "dna_sequence", ids: [sequenceId], reason: "Other" },
    },
    { name: "labdata_unarchive_entities", arguments: { type: "dna_sequence", ids: [sequenceId] } },
    { name: "labdata_sign_out", arguments: {} },
  ];
}

/** protocols_sign_in is measured where the server signs in (bench/protocols-sign-in.mjs). */
export function protocolsCalls(demo) {
  const protocol = String(demo.sampleProtocol.id);
  const draft = (found) => found.draft;
  return [
    { name: "protocols_search", arguments: { keyword: "western blot", limit: 5 } },
    { name: "protocols_get_protocol", arguments: { protocol } },
    { name: "protocols_list_my_protocols", arguments: { limit: 5 } },
    { name: "protocols_list_workspaces", arguments: {} },
    { name: "protocols_download_pdf", arguments: { protocol } },
    { name: "protocols_get_profile", arguments: {} },
    {
      name: "protocols_create_draft",
      arguments: { title: "Buffer exchange", steps: [{ text: "Equilibrate the column." }] },
      keep: (found, result) => {
        found.draft = String(result.structuredContent.id);
      },
    },
    {
      name: "protocols_update_draft",
      arguments: (found) => ({ protocol: draft(found), description: "Swap the buffer of a sample." }),
    },
    {
      name: "protocols_set_steps",
      arguments: (found) => ({
        protocol: draft(found),
        steps: [{ text: "Equilibrate the column." }, { text: "Load the sample." }],
      }),
    },
    {
      name: "protocols_insert_step",
      arguments: (found) => ({ protocol: draft(found), after_step: 2, text: "Collect the eluate." }),
    },
    {
      name: "protocols_edit_step",
      arguments: (found) => ({ protocol: draft(found), step_number: 1, text: "Equilibrate twice." }),
    },
    { name: "protocols_delete_step", arguments: (found) => ({ protocol: draft(found), step_number: 3 }) },
    { name: "protocols_sign_out", arguments: {} },
  ];
}
