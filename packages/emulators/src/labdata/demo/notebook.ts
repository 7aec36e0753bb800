// The demo tenant's notebook, assays and work, the same for the same seed: entries by several
// scientists in several projects (text, tables, checklists, links to sequences, assay runs), entry
// templates, two assay run schemas and two result schemas with units, eighteen numbered runs and
// their results, and workflow tasks for several people and both teams. Dated as of DEMO_TODAY (a
// Monday), so "last week" is 2025-06-23 to 2025-06-29 whenever the emulator starts.
import type { Random } from "../../common/seeded-random.js";
import type {
  AssayFieldDefinition,
  AssayResult,
  AssayRun,
  AssaySchema,
  Entry,
  EntryDay,
  LabRequest,
  Note,
  NoteLink,
  TaskSchema,
  Unit,
  WorkflowTask,
} from "../notebook/model.js";
import type { EmulatorState, TenantState } from "../state/emulator-state.js";

/** The day the demo notebook is written as of (the registry's DEMO_EPOCH). */
export const DEMO_TODAY = "2025-06-30";
const TODAY_MS = Date.parse(`${DEMO_TODAY}T00:00:00Z`);
const DAY_MS = 86_400_000;

export interface DemoNotebook {
  /** The demo's "today": entries of "last week" are dated 2025-06-23 to 2025-06-29. */
  today: string;
  /** Mira Patel's Cas9 screen entry of last week, in "Guide RNAs" (Cas9 Engineering). */
  cas9ScreenEntryId: string;
  /** A long entry of Plasmid Library, cut by labdata_get_entry. */
  longEntryId: string;
  /** The NGS run numbered 12 (Cas9 Engineering), linked from the Cas9 screen entry. */
  run12Id: string;
  /** Entry template ids by name. */
  templates: Record<string, string>;
  /** Assay run and result schema ids by name. */
  assaySchemas: Record<string, string>;
}

export interface NotebookDemoInput {
  tenant: string;
  users: { mira: string; dana: string; tom: string; lin: string };
  teams: Record<string, string>;
  projects: Record<string, string>;
  folders: Record<string, string>;
}

const at = (date: string, hour: number): number => Date.parse(`${date}T00:00:00Z`) + hour * 3_600_000;
const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const text = (value: string, links: NoteLink[] = []): Note => ({
  type: "text",
  indentation: 0,
  text: value,
  links,
});
const bullet = (value: string): Note => ({ type: "list_bullet", indentation: 0, text: value, links: [] });
const check = (value: string, checked: boolean): Note => ({
  type: "list_checkbox",
  indentation: 0,
  text: value,
  checked,
  links: [],
});

const UNITS: Record<string, Unit> = {
  percent: { id: "unit_pct", name: "percent", symbol: "%", unitTypeId: "unittype_ratio" },
  reads: { id: "unit_reads", name: "reads", symbol: "reads", unitTypeId: "unittype_count" },
  ngPerUl: {
    id: "unit_ngul",
    name: "nanograms per microliter",
    symbol: "ng/µL",
    unitTypeId: "unittype_conc",
  },
  ul: { id: "unit_ul", name: "microliter", symbol: "µL", unitTypeId: "unittype_volume" },
  celsius: { id: "unit_degc", name: "degree Celsius", symbol: "°C", unitTypeId: "unittype_temp" },
};

function field(
  id: string,
  name: string,
  type: AssayFieldDefinition["type"],
  options: { unit?: Unit; decimals?: number; required?: boolean } = {},
): AssayFieldDefinition {
  return {
    id,
    name,
    type,
    isRequired: options.required ?? false,
    unit: options.unit ?? null,
    decimalPrecision: options.decimals ?? null,
  };
}

class NotebookBuilder {
  private entryCount = 0;

  constructor(
    readonly state: EmulatorState,
    readonly tenant: TenantState,
    readonly random: Random,
  ) {}

  id(prefix: string): string {
    return this.state.ids.next(prefix);
  }

  /** A UUID drawn from the seed, as the platform gives runs and results. */
  uuid(): string {
    const hex = Array.from({ length: 4 }, () => this.random.uint32().toString(16).padStart(8, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  sequencesIn(folderId: string, count: number) {
    const found = [];
    for (const seq of this.tenant.sequences.values()) {
      if (seq.folderId === folderId && seq.archiveReason === null) found.push(seq);
      if (found.length === count) break;
    }
    return found;
  }

  link(seqId: string): NoteLink {
    return { id: seqId, type: "dna_sequence", webURL: `${this.tenant.baseUrl}/seq/${seqId}` };
  }

  entry(
    input: Omit<Entry, "id" | "displayId" | "archiveReason" | "entryTemplateId" | "reviewStatus"> &
      Partial<Entry>,
  ): Entry {
    this.entryCount += 1;
    const entry: Entry = {
      id: this.id("etr_"),
      displayId: `EXP25${String(this.entryCount).padStart(4, "0")}`,
      archiveReason: null,
      entryTemplateId: null,
      reviewStatus: "IN_PROGRESS",
      ...input,
    };
    this.tenant.notebook.entries.set(entry.id, entry);
    return entry;
  }
}

const EXPERIMENTS = [
  "Gibson assembly",
  "Colony PCR",
  "Miniprep",
  "Transformation",
  "Restriction digest",
  "Western blot",
  "Transfection",
  "Sanger sequencing check",
  "Gel extraction",
  "Golden Gate assembly",
];

/** Generated entries across the folders, by their usual authors, spread over the last four months. */
function routineEntries(b: NotebookBuilder, input: NotebookDemoInput): void {
  const { users, folders } = input;
  const plan: Array<[folder: string, authors: string[]]> = [
    ["Backbones", [users.mira, users.dana]],
    ["Expression Vectors", [users.mira, users.dana]],
    ["Reporter Constructs", [users.mira]],
    ["CRISPR Vectors", [users.dana]],
    ["Cas9 Variants", [users.dana, users.lin]],
    ["Guide RNAs", [users.mira, users.lin]],
    ["Lead Candidates", [users.dana]],
    ["Knockout Cassettes", [users.tom]],
    ["Integration Plasmids", [users.tom, users.dana]],
  ];
  for (const [folderName, authors] of plan) {
    const folderId = folders[folderName] ?? "";
    const seqs = b.sequencesIn(folderId, 12);
    for (let i = 0; i < 6; i++) {
      const author = b.random.pick(authors);
      const created = TODAY_MS - b.random.int(9, 120) * DAY_MS + b.random.int(8, 17) * 3_600_000;
      const experiment = b.random.pick(EXPERIMENTS);
      const seq = seqs[i % Math.max(1, seqs.length)];
      const date = dayText(created);
      const notes: Note[] = [
        text(`${experiment} for ${seq?.name ?? folderName}.`, seq ? [b.link(seq.id)] : []),
        bullet(`Started ${b.random.int(9, 11)}:00, reagents from the shared stock.`),
        check("Recorded lot numbers", true),
        check("Cleaned up the bench", b.random.float() < 0.7),
      ];
      b.entry({
        name: `${experiment} – ${seq?.name ?? folderName}`,
        folderId,
        creatorId: author,
        authorIds: [author],
        days: [{ date, title: null, notes }],
        createdAt: created,
        modifiedAt: created + b.random.int(1, 6) * 3_600_000,
        reviewStatus: b.random.float() < 0.3 ? "ACCEPTED" : "IN_PROGRESS",
      });
    }
  }
}

function assaySchemas(b: NotebookBuilder): Record<string, AssaySchema> {
  const modifiedAt = TODAY_MS - 200 * DAY_MS;
  const schemas: AssaySchema[] = [
    {
      id: b.id("assaysch_"),
      kind: "assay_run",
      name: "NGS Amplicon Run",
      systemName: "ngs_amplicon_run",
      modifiedAt,
      fields: [
        field("fld_ngs_number", "Run number", "integer", { required: true }),
        field("fld_ngs_instrument", "Sequencer", "text"),
        field("fld_ngs_date", "Run date", "date"),
      ],
    },
    {
      id: b.id("assaysch_"),
      kind: "assay_run",
      name: "Plate Reader Run",
      systemName: "plate_reader_run",
      modifiedAt,
      fields: [
        field("fld_pr_number", "Run number", "integer", { required: true }),
        field("fld_pr_instrument", "Instrument", "text"),
        field("fld_pr_temperature", "Temperature", "float", { unit: UNITS.celsius, decimals: 1 }),
      ],
    },
    {
      id: b.id("assaysch_"),
      kind: "assay_result",
      name: "Editing Efficiency",
      systemName: "editing_efficiency",
      modifiedAt,
      fields: [
        field("fld_ee_guide", "Guide", "dna_sequence_link", { required: true }),
        field("fld_ee_run", "Assay run", "assay_run_link"),
        field("fld_ee_efficiency", "Editing efficiency", "float", { unit: UNITS.percent, decimals: 1 }),
        field("fld_ee_indel", "Indel frequency", "float", { unit: UNITS.percent, decimals: 1 }),
        field("fld_ee_reads", "Reads aligned", "integer", { unit: UNITS.reads }),
      ],
    },
    {
      id: b.id("assaysch_"),
      kind: "assay_result",
      name: "Plasmid Yield",
      systemName: "plasmid_yield",
      modifiedAt,
      fields: [
        field("fld_py_plasmid", "Plasmid", "dna_sequence_link", { required: true }),
        field("fld_py_run", "Assay run", "assay_run_link"),
        field("fld_py_concentration", "Concentration", "float", { unit: UNITS.ngPerUl, decimals: 1 }),
        field("fld_py_purity", "A260/A280", "float", { decimals: 2 }),
        field("fld_py_volume", "Volume", "float", { unit: UNITS.ul, decimals: 0 }),
      ],
    },
  ];
  const byName: Record<string, AssaySchema> = {};
  for (const schema of schemas) {
    b.tenant.notebook.assaySchemas.set(schema.id, schema);
    byName[schema.name] = schema;
  }
  return byName;
}

const round = (value: number, decimals: number): number => Number(value.toFixed(decimals));

/**
 * Runs 1–9 on the plate reader (plasmid yields, Plasmid Library), 10–18 on the sequencer (editing
 * efficiency of guides, Cas9 Engineering); six results each. Run 12 belongs to the Cas9 screen entry.
 */
function runsAndResults(
  b: NotebookBuilder,
  input: NotebookDemoInput,
  schemas: Record<string, AssaySchema>,
  cas9Entry: Entry,
): string {
  const { users, projects, folders } = input;
  const guides = b.sequencesIn(folders["Guide RNAs"] ?? "", 12);
  const plasmids = b.sequencesIn(folders.Backbones ?? "", 12);
  let run12 = "";
  for (let number = 1; number <= 18; number++) {
    const ngs = number >= 10;
    const runSchema = schemas[ngs ? "NGS Amplicon Run" : "Plate Reader Run"] as AssaySchema;
    const resultSchema = schemas[ngs ? "Editing Efficiency" : "Plasmid Yield"] as AssaySchema;
    const projectId = (ngs ? projects["Cas9 Engineering"] : projects["Plasmid Library"]) ?? "";
    const createdAt =
      number === 12 ? at("2025-06-26", 14) : TODAY_MS - (19 - number) * 5 * DAY_MS + 10 * 3_600_000;
    const creatorId = ngs ? users.mira : b.random.pick([users.mira, users.dana]);
    const run: AssayRun = {
      id: b.uuid(),
      schemaId: runSchema.id,
      projectId,
      entryId: number === 12 ? cas9Entry.id : null,
      creatorId,
      values: ngs
        ? { "Run number": number, Sequencer: "MiSeq M04211", "Run date": dayText(createdAt) }
        : {
            "Run number": number,
            Instrument: "Tecan Spark",
            Temperature: round(24 + b.random.float() * 2, 1),
          },
      validationStatus: "VALID",
      isReviewed: number < 12,
      createdAt,
      archiveReason: null,
    };
    b.tenant.notebook.assayRuns.set(run.id, run);
    if (number === 12) run12 = run.id;
    for (let i = 0; i < 6; i++) {
      const values = ngs
        ? (() => {
            const efficiency = round(35 + b.random.float() * 60, 1);
            return {
              Guide: guides[(number + i) % guides.length]?.id ?? null,
              "Assay run": run.id,
              "Editing efficiency": efficiency,
              "Indel frequency": round(efficiency * (0.8 + b.random.float() * 0.15), 1),
              "Reads aligned": b.random.int(8_000, 60_000),
            };
          })()
        : {
            Plasmid: plasmids[(number + i) % plasmids.length]?.id ?? null,
            "Assay run": run.id,
            Concentration: round(80 + b.random.float() * 320, 1),
            "A260/A280": round(1.75 + b.random.float() * 0.2, 2),
            Volume: 50,
          };
      const result: AssayResult = {
        id: b.uuid(),
        schemaId: resultSchema.id,
        projectId,
        entryId: run.entryId,
        creatorId,
        values,
        isReviewed: run.isReviewed,
        createdAt: createdAt + (i + 1) * 60_000,
        modifiedAt: createdAt + (i + 1) * 60_000,
        archiveReason: null,
      };
      b.tenant.notebook.assayResults.set(result.id, result);
    }
  }
  return run12;
}

function cas9ScreenEntry(b: NotebookBuilder, input: NotebookDemoInput): Entry {
  const { users, folders } = input;
  const guides = b.sequencesIn(folders["Guide RNAs"] ?? "", 6);
  const table: Note = {
    type: "table",
    indentation: 0,
    text: "Guides in the screen",
    links: [],
    table: {
      name: "Guides",
      columnLabels: ["Guide", "Target", "Well", "Cells seeded"],
      rows: guides.slice(0, 4).map((guide, i) => ({
        cells: [
          { text: guide.name, link: b.link(guide.id) },
          { text: ["EMX1", "VEGFA", "AAVS1", "HEK3"][i] ?? "" },
          { text: `A${i + 1}` },
          { text: "2.0e5" },
        ],
      })),
    },
  };
  const days: EntryDay[] = [
    {
      date: "2025-06-23",
      title: "Transfection",
      notes: [
        text(
          `Cas9 screen of four guides in HEK293T, starting with ${guides[0]?.name ?? "the first guide"}.`,
          guides[0] ? [b.link(guides[0].id)] : [],
        ),
        table,
        check("Seeded 24-well plate the day before", true),
        check("Transfected Cas9 RNP with Lipofectamine CRISPRMAX", true),
        check("Mock-transfected control well", true),
      ],
    },
    {
      date: "2025-06-24",
      title: "Harvest",
      notes: [
        text("Cells looked healthy, ~80% confluent. Harvested genomic DNA 72 h after transfection."),
        bullet("QuickExtract, 65 °C 6 min, 98 °C 2 min"),
        bullet("Amplicons with barcoded primers, 25 cycles"),
        check("Gel check of amplicons", true),
      ],
    },
    {
      date: "2025-06-26",
      title: "Sequencing readout",
      notes: [
        text("Amplicon sequencing on the MiSeq came back; editing efficiencies are in run 12."),
        { type: "assay_run", indentation: 0, assayRunId: "", assayRunSchemaId: "" },
        { type: "results_table", indentation: 0, apiId: "tbl_cas9_screen", assayResultSchemaId: "" },
        check("Send the two best guides to Tom for the knockout line", false),
      ],
    },
  ];
  return b.entry({
    name: "Cas9 screen – HEK293T guide panel",
    folderId: folders["Guide RNAs"] ?? "",
    creatorId: users.mira,
    authorIds: [users.mira],
    days,
    createdAt: at("2025-06-23", 9),
    modifiedAt: at("2025-06-26", 16),
  });
}

function longEntry(b: NotebookBuilder, input: NotebookDemoInput): Entry {
  const { users, folders } = input;
  const plasmids = b.sequencesIn(folders.Backbones ?? "", 120);
  const days: EntryDay[] = [];
  for (let d = 0; d < 10; d++) {
    const date = dayText(TODAY_MS - (40 - d) * DAY_MS);
    days.push({
      date,
      title: `Batch 7, plate ${d + 1}`,
      notes: [
        text(`Minipreps of plate ${d + 1}; elution in 50 µL EB. Concentrations by NanoDrop.`),
        {
          type: "table",
          indentation: 0,
          text: `Plate ${d + 1} yields`,
          links: [],
          table: {
            name: `Plate${d + 1}`,
            columnLabels: ["Plasmid", "Concentration (ng/µL)", "A260/A280", "Pass"],
            rows: plasmids.slice(d * 12, d * 12 + 12).map((plasmid) => ({
              cells: [
                { text: plasmid.name, link: b.link(plasmid.id) },
                { text: String(round(60 + b.random.float() * 300, 1)) },
                { text: String(round(1.7 + b.random.float() * 0.25, 2)) },
                { text: b.random.float() < 0.85 ? "yes" : "no" },
              ],
            })),
          },
        },
        check("Glycerol stocks made", d < 9),
      ],
    });
  }
  return b.entry({
    name: "Plasmid library QC – batch 7",
    folderId: folders.Backbones ?? "",
    creatorId: users.mira,
    authorIds: [users.mira, users.dana],
    days,
    createdAt: TODAY_MS - 40 * DAY_MS,
    modifiedAt: TODAY_MS - 30 * DAY_MS,
    reviewStatus: "NEEDS_REVIEW",
  });
}

function templates(b: NotebookBuilder, input: NotebookDemoInput): Record<string, string> {
  const { projects, users } = input;
  const collections: Record<string, string> = {};
  for (const project of ["Cas9 Engineering", "Plasmid Library", "Strain Construction"]) {
    const id = b.id("tmplcol_");
    b.tenant.notebook.templateCollections.set(id, {
      id,
      name: `${project} templates`,
      projectId: projects[project] ?? "",
    });
    collections[project] = id;
  }
  const plan: Array<[name: string, project: string, days: Array<{ title: string; notes: Note[] }>]> = [
    [
      "CRISPR screen",
      "Cas9 Engineering",
      [
        {
          title: "Transfection",
          notes: [
            text("Objective and guides:"),
            check("Seed cells the day before", false),
            check("Transfect Cas9 RNP", false),
            check("Mock-transfected control", false),
          ],
        },
        {
          title: "Harvest",
          notes: [
            text("Harvest genomic DNA 72 h after transfection."),
            check("Gel check of amplicons", false),
          ],
        },
        { title: "Readout", notes: [text("Link the sequencing run and its results here.")] },
      ],
    ],
    [
      "Miniprep and QC",
      "Plasmid Library",
      [
        {
          title: "Minipreps",
          notes: [
            text("Cultures, kit and elution volume:"),
            {
              type: "table",
              indentation: 0,
              text: "Yields",
              links: [],
              table: {
                name: "Yields",
                columnLabels: ["Plasmid", "Concentration (ng/µL)", "A260/A280"],
                rows: [],
              },
            },
            check("Glycerol stocks made", false),
          ],
        },
      ],
    ],
    [
      "Transformation",
      "Plasmid Library",
      [
        {
          title: "Transformation",
          notes: [text("Strain, plasmid and selection:"), check("Plated on selective agar", false)],
        },
      ],
    ],
    [
      "Knockout validation",
      "Strain Construction",
      [
        {
          title: "Validation",
          notes: [text("Colony PCR across both junctions."), check("Sequencing confirmed", false)],
        },
      ],
    ],
  ];
  const ids: Record<string, string> = {};
  plan.forEach(([name, project, days], i) => {
    const id = b.id("tmpl_");
    b.tenant.notebook.entryTemplates.set(id, {
      id,
      name,
      collectionId: collections[project] ?? "",
      creatorId: users.dana,
      days: days.map((day, index) => ({ day: index + 1, title: day.title, notes: day.notes })),
      createdAt: TODAY_MS - (300 - i) * DAY_MS,
      modifiedAt: TODAY_MS - (100 - i) * DAY_MS,
      archiveReason: null,
    });
    ids[name] = id;
  });
  return ids;
}

const STATUSES: Array<[string, TaskSchema["statuses"][number]["statusType"]]> = [
  ["Pending", "PENDING"],
  ["In progress", "IN_PROGRESS"],
  ["Completed", "COMPLETED"],
  ["Failed", "FAILED"],
];

/** Three workflows with tasks for Mira, Tom, Dana, Lin and for teams without an assignee yet. */
function workflows(b: NotebookBuilder, input: NotebookDemoInput, cas9Entry: Entry): void {
  const { users, teams, folders } = input;
  const { notebook } = b.tenant;
  const schemas: Record<string, TaskSchema> = {};
  for (const name of ["Sequencing request", "Plasmid prep", "Strain construction"]) {
    const schema: TaskSchema = {
      id: b.id("prstsch_"),
      name,
      statuses: STATUSES.map(([displayName, statusType]) => ({ id: b.id("wfts_"), displayName, statusType })),
    };
    notebook.taskSchemas.set(schema.id, schema);
    schemas[name] = schema;
  }
  const groups: Array<[name: string, folder: string, schema: string, team: string]> = [
    ["Cas9 screen follow-up", "Guide RNAs", "Sequencing request", "Protein Engineering"],
    ["Plasmid prep queue", "Backbones", "Plasmid prep", "Cloning"],
    ["Knockout strains", "Knockout Cassettes", "Strain construction", "Cloning"],
  ];
  const plan: Array<[group: number, assignee: string | null, status: number, about: string, sample: string]> =
    [
      [0, users.mira, 0, "Amplicon sequencing of the two best guides from run 12", "EMX1 and VEGFA guides"],
      [0, users.mira, 1, "Re-test guide 3 with a higher RNP dose", "AAVS1 guide"],
      [0, users.lin, 0, "Off-target panel for the EMX1 guide", "EMX1 guide"],
      [0, null, 0, "Order new barcoded primers", "Primer plate P7"],
      [0, users.dana, 2, "Review the screen design", "HEK293T guide panel"],
      [1, users.mira, 0, "Midiprep of the GFP reporter backbone", "pUC19 backbone"],
      [1, users.mira, 2, "Miniprep batch 7, plate 5", "Batch 7"],
      [1, users.tom, 1, "Prepare competent cells for the backbone transformations", "DH5α"],
      [1, null, 0, "Restock the miniprep kits", "Kit order"],
      [1, users.dana, 3, "Repeat the failed digest of plate 2", "Batch 7, plate 2"],
      [2, users.tom, 1, "Colony PCR of the lacZ knockout", "lacZ cassette"],
      [2, users.tom, 0, "Integrate the recA cassette", "recA cassette"],
      [2, null, 0, "Sequence the galK junctions", "galK cassette"],
      [2, users.dana, 2, "Freeze the thyA strain", "thyA knockout"],
    ];
  const groupIds = groups.map(([name, folder], i) => {
    const id = b.id("prs_");
    notebook.taskGroups.set(id, {
      id,
      displayId: `WF${String(i + 1).padStart(3, "0")}`,
      name,
      folderId: folders[folder] ?? "",
    });
    return id;
  });
  plan.forEach(([group, assignee, status, about, sample], i) => {
    const [, , schemaName, teamName] = groups[group] as (typeof groups)[number];
    const schema = schemas[schemaName] as TaskSchema;
    const createdAt = TODAY_MS - (20 - i) * DAY_MS;
    const task: WorkflowTask = {
      id: b.id("wftask_"),
      displayId: `TSK${String(i + 1).padStart(3, "0")}`,
      groupId: groupIds[group] ?? "",
      schemaId: schema.id,
      statusId: schema.statuses[status]?.id ?? "",
      assigneeId: assignee,
      responsibleTeamId: teams[teamName] ?? null,
      creatorId: users.dana,
      scheduledOn: dayText(TODAY_MS + (i % 5) * DAY_MS),
      values: { Task: about, Sample: sample },
      entryId: group === 0 ? cas9Entry.id : null,
      createdAt,
      modifiedAt: createdAt + DAY_MS,
      archiveReason: null,
    };
    notebook.tasks.set(task.id, task);
  });
}

/** Requests for sequencing and oligos, asked by scientists of teams and people, in two projects. */
function requests(b: NotebookBuilder, input: NotebookDemoInput): void {
  const { users, teams, projects } = input;
  const { notebook } = b.tenant;
  const schemas: Record<string, string> = {};
  for (const [name, systemName] of [
    ["Sequencing Request", "sequencing_request"],
    ["Oligo Synthesis", "oligo_synthesis"],
  ] as const) {
    const id = b.id("assaysch_");
    notebook.requestSchemas.set(id, { id, name, systemName, modifiedAt: TODAY_MS - 200 * DAY_MS });
    schemas[name] = id;
  }
  const plan: Array<
    [
      schema: string,
      project: string,
      requestor: string,
      assignees: string[],
      status: LabRequest["status"],
      about: string,
    ]
  > = [
    [
      "Sequencing Request",
      "Cas9 Engineering",
      users.mira,
      [teams["Protein Engineering"] ?? ""],
      "REQUESTED",
      "Amplicon sequencing of run 12's best guides",
    ],
    [
      "Sequencing Request",
      "Cas9 Engineering",
      users.lin,
      [users.mira],
      "IN_PROGRESS",
      "Off-target panel, EMX1 guide",
    ],
    [
      "Sequencing Request",
      "Plasmid Library",
      users.dana,
      [users.mira],
      "SCHEDULED",
      "Whole-plasmid sequencing of batch 7",
    ],
    [
      "Sequencing Request",
      "Plasmid Library",
      users.mira,
      [teams.Cloning ?? ""],
      "COMPLETED",
      "Sanger check of pUC19 backbone",
    ],
    [
      "Oligo Synthesis",
      "Cas9 Engineering",
      users.mira,
      [users.dana],
      "REQUESTED",
      "Barcoded amplicon primers, plate P7",
    ],
    [
      "Oligo Synthesis",
      "Plasmid Library",
      users.tom,
      [teams.Cloning ?? ""],
      "IN_PROGRESS",
      "Gibson overlap primers for recA",
    ],
    ["Oligo Synthesis", "Plasmid Library", users.dana, [users.tom], "CANCELLED", "Duplicate order"],
  ];
  plan.forEach(([schema, project, requestor, assigneeIds, status, about], i) => {
    const request: LabRequest = {
      id: b.id("req_"),
      displayId: `REQ${String(i + 1).padStart(3, "0")}`,
      schemaId: schemas[schema] ?? "",
      projectId: projects[project] ?? "",
      status,
      requestorId: requestor,
      creatorId: requestor,
      assigneeIds,
      scheduledOn: status === "SCHEDULED" ? dayText(TODAY_MS + 2 * DAY_MS) : null,
      values: { Request: about },
      createdAt: TODAY_MS - (10 - i) * DAY_MS,
    };
    notebook.requests.set(request.id, request);
  });
}

export function createDemoNotebook(
  state: EmulatorState,
  input: NotebookDemoInput,
  random: Random,
): DemoNotebook {
  const tenant = state.tenants.get(input.tenant);
  if (!tenant) throw new Error(`no tenant ${input.tenant}`);
  const b = new NotebookBuilder(state, tenant, random);
  const templateIds = templates(b, input);
  routineEntries(b, input);
  // An older pilot of the same screen, so that a date range matters.
  b.entry({
    name: "Cas9 screen – pilot with two guides",
    folderId: input.folders["Guide RNAs"] ?? "",
    creatorId: input.users.mira,
    authorIds: [input.users.mira],
    days: [
      { date: "2025-05-12", title: null, notes: [text("Pilot: two guides, editing below 20%; redesign.")] },
    ],
    createdAt: at("2025-05-12", 9),
    modifiedAt: at("2025-05-13", 11),
    reviewStatus: "ACCEPTED",
  });
  const cas9 = cas9ScreenEntry(b, input);
  const long = longEntry(b, input);
  const schemas = assaySchemas(b);
  const run12 = runsAndResults(b, input, schemas, cas9);
  // The readout day points at run 12 and its results table.
  const readout = cas9.days[2]?.notes ?? [];
  readout[1] = {
    type: "assay_run",
    indentation: 0,
    assayRunId: run12,
    assayRunSchemaId: schemas["NGS Amplicon Run"]?.id ?? "",
  };
  readout[2] = {
    type: "results_table",
    indentation: 0,
    apiId: "tbl_cas9_screen",
    assayResultSchemaId: schemas["Editing Efficiency"]?.id ?? "",
  };
  workflows(b, input, cas9);
  requests(b, input);
  return {
    today: DEMO_TODAY,
    cas9ScreenEntryId: cas9.id,
    longEntryId: long.id,
    run12Id: run12,
    templates: templateIds,
    assaySchemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, schema.id])),
  };
}
