// The demo registry and inventory of tenant "acme", the same for the same seed: one registry with
// its entity schemas; three shRNA plasmids (pLKO-shRNA-1..3, made from plasmids of "CRISPR Vectors"
// so the DNA counts stay as documented); AA sequences, DNA and RNA oligos and strains in folders
// the demo users see differently; and two rooms of freezers, shelves, racks, boxes and a plate,
// holding containers with quantities, among them the glycerol stock of pLKO-shRNA-3.
import type { Random } from "../../common/seeded-random.js";
import type {
  Box,
  Container,
  EntityKind,
  EntitySchemaRecord,
  Location,
  Plate,
  Quantity,
} from "../registry/model.js";
import { registryOf } from "../registry/store.js";
import { randomBases, randomOrf, translate } from "../sequences/dna.js";
import type { TenantState } from "../state/emulator-state.js";
import type { IdFactory } from "../state/ids.js";
import type { DnaSequence, FieldValue } from "../state/model.js";

const DEMO_EPOCH = Date.UTC(2025, 5, 30);
const DAY_MS = 86_400_000;

export interface RegistryDemo {
  registryId: string;
  /** Schema ids by name. */
  schemas: Record<string, string>;
  /** pLKO-shRNA-1..3 by name: DNA sequence ids, registered as PL09001..PL09003. */
  shRnaPlasmids: Record<string, string>;
  /** The hairpin insert of pLKO-shRNA-3 (bases found in no other sequence). */
  shRna3Insert: string;
  /** The glycerol stock holding pLKO-shRNA-3, and the box it sits in. */
  glycerolStockId: string;
  glycerolBoxId: string;
  plateId: string;
  /** A box of "Strain Construction", which the main user may not read. */
  hiddenBoxId: string;
  hiddenContainerId: string;
  /** Entity ids by name. */
  entities: Record<string, string>;
  /** Location ids by name. */
  locations: Record<string, string>;
}

export interface RegistryDemoInput {
  tenant: TenantState;
  ids: IdFactory;
  random: Random;
  organizationId: string;
  projects: Record<string, string>;
  folders: Record<string, string>;
  /** Creators drawn for the records. */
  creators: string[];
}

const SCHEMAS: Array<Omit<EntitySchemaRecord, "id" | "modifiedAt"> & { id?: string }> = [
  // The generator's plasmids already carry schema ts_Plasmid.
  {
    id: "ts_Plasmid",
    name: "Plasmid",
    type: "dna_sequence",
    prefix: "PL",
    fields: [{ name: "Resistance", type: "text" }],
  },
  { name: "Strain", type: "custom_entity", prefix: "STR", fields: [{ name: "Genotype", type: "text" }] },
  { name: "Cell Line", type: "custom_entity", prefix: "CL", fields: [{ name: "Organism", type: "text" }] },
  { name: "Primer", type: "dna_oligo", prefix: "OL", fields: [{ name: "Tm (°C)", type: "float" }] },
  { name: "siRNA", type: "rna_oligo", prefix: "SI", fields: [{ name: "Target", type: "text" }] },
  { name: "Protein", type: "aa_sequence", prefix: "PR", fields: [{ name: "Tag", type: "text" }] },
];

function text(value: string): FieldValue {
  return { value, type: "text", displayValue: value, isMulti: false, textValue: value };
}

function dated(random: Random) {
  const createdAt = DEMO_EPOCH - random.int(30, 400) * DAY_MS - random.int(0, DAY_MS);
  return { createdAt, modifiedAt: createdAt + random.int(0, DEMO_EPOCH - createdAt) };
}

/** A stretch of `length` bases of `seq` covered by no annotation, primer or translation. */
function freeStretch(seq: DnaSequence, length: number): number | undefined {
  const used = [...seq.annotations, ...seq.primers, ...seq.translations].map((r) =>
    r.end < r.start ? { start: 0, end: seq.bases.length } : r,
  );
  for (let start = 0; start + length <= seq.bases.length; start += 10) {
    if (used.every((r) => start + length <= r.start || start >= r.end)) return start;
  }
  return undefined;
}

/** Turns three plasmids of "CRISPR Vectors" into registered pLKO shRNA vectors with a hairpin each. */
function shRnaPlasmids(input: RegistryDemoInput, demo: RegistryDemo): void {
  const { tenant, random, folders } = input;
  const folderId = folders["CRISPR Vectors"];
  const targets = ["TP53", "KRAS", "MYC"];
  let made = 0;
  for (const seq of tenant.sequences.values()) {
    if (made === targets.length) break;
    if (seq.folderId !== folderId || seq.archiveReason !== null) continue;
    const start = freeStretch(seq, 58);
    if (start === undefined) continue;
    const target = targets[made] ?? "TP53";
    made++;
    // sense 21-mer, loop, antisense: a classic TRC hairpin.
    const sense = randomBases(random, 21);
    const hairpin = `CCGG${sense}CTCGAG${reverse(sense)}TTTTTG`.slice(0, 58);
    seq.bases = seq.bases.slice(0, start) + hairpin + seq.bases.slice(start + hairpin.length);
    seq.name = `pLKO-shRNA-${made}`;
    seq.aliases = [`sh${target}-${made}`];
    seq.entityRegistryId = `PL0900${made}`;
    seq.annotations = [
      ...seq.annotations,
      {
        start,
        end: start + hairpin.length,
        strand: 1 as const,
        type: "misc_feature",
        name: `sh${target} hairpin`,
        color: "#0F9D58",
      },
    ].sort((a, b) => a.start - b.start);
    seq.fields = { ...seq.fields, Target: text(target) };
    tenant.sequenceJson.delete(seq.id);
    demo.shRnaPlasmids[seq.name] = seq.id;
    demo.entities[seq.name] = seq.id;
    if (made === 3) demo.shRna3Insert = hairpin;
  }
}

function reverse(bases: string): string {
  const pairs: Record<string, string> = { A: "T", T: "A", C: "G", G: "C" };
  return [...bases]
    .reverse()
    .map((b) => pairs[b] ?? "N")
    .join("");
}

interface EntityPlan {
  kind: EntityKind;
  name: string;
  folder: string;
  schema: string;
  registryId?: string;
  aliases?: string[];
  residues?: string;
  fields?: Record<string, string>;
}

function entityPlans(random: Random): EntityPlan[] {
  const protein = (codons: number) => translate(randomOrf(random, codons)).replace(/\*$/, "");
  const oligo = (length: number) => randomBases(random, length);
  return [
    // Mira reads Plasmid Library (write) and the Protein Engineering team (read).
    {
      kind: "dna_oligo",
      name: "pLKO-seq-F",
      folder: "CRISPR Vectors",
      schema: "Primer",
      registryId: "OL00001",
      residues: "GACTATCATATGCTTACCGT",
      fields: { "Tm (°C)": "58.1" },
    },
    {
      kind: "dna_oligo",
      name: "pLKO-seq-R",
      folder: "CRISPR Vectors",
      schema: "Primer",
      registryId: "OL00002",
      residues: oligo(20),
    },
    {
      kind: "dna_oligo",
      name: "M13-F",
      folder: "Backbones",
      schema: "Primer",
      registryId: "OL00003",
      aliases: ["M13 forward"],
      residues: "GTAAAACGACGGCCAGT",
    },
    {
      kind: "dna_oligo",
      name: "T7-promoter-F",
      folder: "Backbones",
      schema: "Primer",
      registryId: "OL00004",
      residues: "TAATACGACTCACTATAGGG",
    },
    {
      kind: "dna_oligo",
      name: "GFP-qPCR-F",
      folder: "Reporter Constructs",
      schema: "Primer",
      residues: oligo(22),
    },
    {
      kind: "rna_oligo",
      name: "siTP53-1",
      folder: "CRISPR Vectors",
      schema: "siRNA",
      registryId: "SI00001",
      residues: oligo(21).replace(/T/g, "U"),
      fields: { Target: "TP53" },
    },
    {
      kind: "rna_oligo",
      name: "siKRAS-2",
      folder: "CRISPR Vectors",
      schema: "siRNA",
      registryId: "SI00002",
      residues: oligo(21).replace(/T/g, "U"),
      fields: { Target: "KRAS" },
    },
    {
      kind: "aa_sequence",
      name: "EGFP",
      folder: "Expression Vectors",
      schema: "Protein",
      registryId: "PR00001",
      aliases: ["enhanced GFP"],
      residues: protein(238),
      fields: { Tag: "none" },
    },
    {
      kind: "aa_sequence",
      name: "His6-TEV-SpCas9",
      folder: "Expression Vectors",
      schema: "Protein",
      registryId: "PR00002",
      residues: protein(400),
      fields: { Tag: "His6" },
    },
    {
      kind: "aa_sequence",
      name: "mCherry",
      folder: "Reporter Constructs",
      schema: "Protein",
      residues: protein(236),
    },
    {
      kind: "aa_sequence",
      name: "mAb-1042 heavy chain",
      folder: "Lead Candidates",
      schema: "Protein",
      registryId: "PR00003",
      residues: protein(450),
    },
    {
      kind: "custom_entity",
      name: "DH5alpha pLKO-shRNA-3",
      folder: "CRISPR Vectors",
      schema: "Strain",
      registryId: "STR00001",
      aliases: ["glycerol strain sh3"],
      fields: { Genotype: "F- endA1 recA1 / pLKO-shRNA-3" },
    },
    {
      kind: "custom_entity",
      name: "Stbl3",
      folder: "Backbones",
      schema: "Strain",
      registryId: "STR00002",
      fields: { Genotype: "F- mcrB mrr hsdS20" },
    },
    {
      kind: "custom_entity",
      name: "HEK293T",
      folder: "Reporter Constructs",
      schema: "Cell Line",
      registryId: "CL00001",
      aliases: ["293T"],
      fields: { Organism: "Homo sapiens" },
    },
    // Strain Construction (the Cloning team): not readable by Mira or Lin.
    {
      kind: "custom_entity",
      name: "BW25113 ΔlacZ::KanR",
      folder: "Knockout Cassettes",
      schema: "Strain",
      registryId: "STR00003",
      fields: { Genotype: "ΔlacZ::FRT-KanR-FRT" },
    },
    {
      kind: "custom_entity",
      name: "MG1655 ΔrecA",
      folder: "Knockout Cassettes",
      schema: "Strain",
      registryId: "STR00004",
    },
    {
      kind: "dna_oligo",
      name: "lacZ-KO-check-F",
      folder: "Knockout Cassettes",
      schema: "Primer",
      registryId: "OL00005",
      residues: oligo(24),
    },
  ];
}

const GLYCEROL = { id: "cs_GlycerolStock", name: "Glycerol Stock" };
const TUBE = { id: "cs_Tube", name: "Tube" };
const CRYOVIAL = { id: "cs_Cryovial", name: "Cryovial" };
const WELL = { id: "cs_Well", name: "Plate Well" };

/** What the inventory's pieces are made with: a creator drawn per record, and the demo's names. */
interface InventoryMakers {
  location(name: string, schema: string, parent: string | null): string;
  box(name: string, parent: string, project: string, rows?: number, columns?: number): Box;
  container(
    name: string,
    parent: { id: string; projectId: string },
    position: string | null,
    contents: Array<[string, Quantity]>,
    quantity: Quantity,
    schema?: { id: string; name: string },
  ): Container;
  /** The id of a demo entity by name. */
  id(name: string): string;
}

const none: Quantity = { value: null, units: null };

function emptyDemo(): RegistryDemo {
  return {
    registryId: "",
    schemas: {},
    shRnaPlasmids: {},
    shRna3Insert: "",
    glycerolStockId: "",
    glycerolBoxId: "",
    plateId: "",
    hiddenBoxId: "",
    hiddenContainerId: "",
    entities: {},
    locations: {},
  };
}

/** The registry and its entity schemas. */
function addRegistry(input: RegistryDemoInput, demo: RegistryDemo): void {
  const { tenant, ids } = input;
  const store = registryOf(tenant);
  const registry = {
    id: ids.next("src_"),
    name: "Acme Registry",
    organizationId: input.organizationId,
    modifiedAt: DEMO_EPOCH - 400 * DAY_MS,
  };
  store.registries.set(registry.id, registry);
  demo.registryId = registry.id;
  for (const plan of SCHEMAS) {
    const schema = { ...plan, id: plan.id ?? ids.next("ts_"), modifiedAt: DEMO_EPOCH - 300 * DAY_MS };
    store.schemas.set(schema.id, schema);
    demo.schemas[schema.name] = schema.id;
  }
}

/** The registered entities of the plans, each in its folder. */
function addEntities(input: RegistryDemoInput, demo: RegistryDemo): void {
  const { tenant, ids, random, creators, folders } = input;
  const store = registryOf(tenant);
  const creator = () => random.pick(creators);
  for (const plan of entityPlans(random)) {
    const schemaId = demo.schemas[plan.schema] ?? "";
    const prefix = plan.kind === "aa_sequence" ? "prtn_" : plan.kind === "custom_entity" ? "bfi_" : "seq_";
    const entity = {
      id: ids.next(prefix),
      kind: plan.kind,
      name: plan.name,
      aliases: plan.aliases ?? [],
      folderId: folders[plan.folder] ?? "",
      schema: { id: schemaId, name: plan.schema },
      entityRegistryId: plan.registryId ?? null,
      residues: plan.residues ?? "",
      fields: Object.fromEntries(Object.entries(plan.fields ?? {}).map(([k, v]) => [k, text(v)])),
      creatorId: creator(),
      ...dated(random),
      archiveReason: null,
    };
    store.entities.set(entity.id, entity);
    demo.entities[entity.name] = entity.id;
  }
}

function inventoryMakers(input: RegistryDemoInput, demo: RegistryDemo): InventoryMakers {
  const { tenant, ids, random, creators, projects } = input;
  const store = registryOf(tenant);
  const creator = () => random.pick(creators);
  const location = (name: string, schema: string, parent: string | null): string => {
    const item: Location = {
      id: ids.next("loc_"),
      name,
      barcode: `LOC-${String(store.locations.size + 1).padStart(4, "0")}`,
      schema: { id: `locsch_${schema.replace(/[^A-Za-z0-9]/g, "")}`, name: schema },
      parentStorageId: parent,
      creatorId: creator(),
      ...dated(random),
      archiveReason: null,
    };
    store.locations.set(item.id, item);
    demo.locations[name] = item.id;
    return item.id;
  };
  const box = (name: string, parent: string, project: string, rows = 9, columns = 9): Box => {
    const item: Box = {
      id: ids.next("box_"),
      name,
      barcode: `BX-${String(store.boxes.size + 1).padStart(4, "0")}`,
      schema: { id: `boxsch_${rows}x${columns}`, name: `Box ${rows}x${columns}` },
      parentStorageId: parent,
      projectId: projects[project] ?? "",
      rows,
      columns,
      creatorId: creator(),
      ...dated(random),
      archiveReason: null,
    };
    store.boxes.set(item.id, item);
    return item;
  };
  const container = (
    name: string,
    parent: { id: string; projectId: string },
    position: string | null,
    contents: Array<[string, Quantity]>,
    quantity: Quantity,
    schema: { id: string; name: string } = TUBE,
  ): Container => {
    const item: Container = {
      id: ids.next("con_"),
      name,
      barcode: `CT-${String(store.containers.size + 1).padStart(5, "0")}`,
      schema,
      parentStorageId: parent.id,
      projectId: parent.projectId,
      position,
      contents: contents.map(([entityId, concentration]) => ({ entityId, concentration })),
      quantity,
      creatorId: creator(),
      ...dated(random),
      archiveReason: null,
    };
    store.containers.set(item.id, item);
    return item;
  };
  const id = (name: string) => demo.entities[name] ?? "";

  return { location, box, container, id };
}

/** Storage: rooms > freezers > shelves > racks > boxes; a fridge shelf with a primer plate. */
function storageTree({ location }: InventoryMakers) {
  const lab = location("Lab 3.14", "Room", null);
  const freezerA = location("-80 °C Freezer A", "Freezer", lab);
  const shelf2 = location("Freezer A Shelf 2", "Shelf", freezerA);
  const rackB = location("Freezer A Rack B", "Rack", shelf2);
  const fridge = location("4 °C Fridge 1", "Fridge", lab);
  const fridgeShelf = location("Fridge 1 Shelf 1", "Shelf", fridge);
  const cellRoom = location("Tissue Culture Room 3.16", "Room", null);
  const dewar = location("LN2 Dewar 1", "Freezer", cellRoom);
  const dewarRack = location("LN2 Dewar 1 Rack 3", "Rack", dewar);
  const freezerB = location("-80 °C Freezer B", "Freezer", lab);
  const shelfB = location("Freezer B Shelf 1", "Shelf", freezerB);
  return { lab, freezerA, shelf2, rackB, fridge, fridgeShelf, cellRoom, dewar, dewarRack, freezerB, shelfB };
}

function glycerolStocks(make: InventoryMakers, demo: RegistryDemo, rack: string): void {
  const { box, container, id } = make;
  const glycerolBox = box("Glycerol stocks GS-1", rack, "Plasmid Library");
  demo.glycerolBoxId = glycerolBox.id;
  container(
    "pLKO-shRNA-1 glycerol stock",
    glycerolBox,
    "A1",
    [[id("pLKO-shRNA-1"), none]],
    { value: 1, units: "mL" },
    GLYCEROL,
  );
  container(
    "pLKO-shRNA-2 glycerol stock",
    glycerolBox,
    "A2",
    [[id("pLKO-shRNA-2"), none]],
    { value: 0.8, units: "mL" },
    GLYCEROL,
  );
  const stock = container(
    "pLKO-shRNA-3 glycerol stock",
    glycerolBox,
    "C4",
    [
      [id("pLKO-shRNA-3"), none],
      [id("DH5alpha pLKO-shRNA-3"), none],
    ],
    { value: 1.5, units: "mL" },
    GLYCEROL,
  );
  demo.glycerolStockId = stock.id;
  container(
    "Stbl3 competent cells",
    glycerolBox,
    "I9",
    [[id("Stbl3"), none]],
    { value: 200, units: "uL" },
    GLYCEROL,
  );
}

function proteinAndCellStocks(make: InventoryMakers, shelf: string, dewarRack: string): void {
  const { box, container, id } = make;
  const proteinBox = box("Protein aliquots PA-1", shelf, "Cas9 Engineering");
  container(
    "His6-TEV-SpCas9 aliquot 1",
    proteinBox,
    "A1",
    [[id("His6-TEV-SpCas9"), { value: 2.5, units: "mg/mL" }]],
    { value: 50, units: "uL" },
  );
  container(
    "His6-TEV-SpCas9 aliquot 2",
    proteinBox,
    "A2",
    [[id("His6-TEV-SpCas9"), { value: 2.5, units: "mg/mL" }]],
    { value: 45, units: "uL" },
  );

  const cellBox = box("HEK293T vials", dewarRack, "Plasmid Library", 10, 10);
  container(
    "HEK293T P5",
    cellBox,
    "B2",
    [[id("HEK293T"), none]],
    { value: 2, units: "(x10^6) cells" },
    CRYOVIAL,
  );
}

function primerPlate(
  input: RegistryDemoInput,
  make: InventoryMakers,
  demo: RegistryDemo,
  shelf: string,
): void {
  const { tenant, ids, random, creators, projects } = input;
  const { container, id } = make;
  const store = registryOf(tenant);
  const creator = () => random.pick(creators);
  const plate: Plate = {
    id: ids.next("plt_"),
    name: "Primer plate P-1",
    barcode: "PL-0001",
    schema: { id: "pltsch_96", name: "96-well plate" },
    parentStorageId: shelf,
    projectId: projects["Plasmid Library"] ?? "",
    rows: 8,
    columns: 12,
    creatorId: creator(),
    ...dated(random),
    archiveReason: null,
  };
  store.plates.set(plate.id, plate);
  demo.plateId = plate.id;
  const primers = ["pLKO-seq-F", "pLKO-seq-R", "M13-F", "T7-promoter-F", "GFP-qPCR-F"];
  for (const [i, name] of primers.entries()) {
    const well = `${"AB".charAt(i % 2)}${Math.floor(i / 2) + 1}`;
    container(
      `P-1 ${well}`,
      plate,
      well,
      [[id(name), { value: 100, units: "uM" }]],
      { value: 40, units: "uL" },
      WELL,
    );
  }
}

/** Strains in a box of a project the demo's app cannot read: what an inaccessible container looks like. */
function knockoutStrains(make: InventoryMakers, demo: RegistryDemo, shelf: string): void {
  const { box, container, id } = make;
  const hiddenBox = box("Knockout strains KS-1", shelf, "Strain Construction");
  demo.hiddenBoxId = hiddenBox.id;
  demo.hiddenContainerId = container(
    "BW25113 ΔlacZ glycerol stock",
    hiddenBox,
    "A1",
    [[id("BW25113 ΔlacZ::KanR"), none]],
    { value: 1, units: "mL" },
    GLYCEROL,
  ).id;
  container(
    "MG1655 ΔrecA glycerol stock",
    hiddenBox,
    "A2",
    [[id("MG1655 ΔrecA"), none]],
    { value: 1, units: "mL" },
    GLYCEROL,
  );
}

export function createRegistryDemo(input: RegistryDemoInput): RegistryDemo {
  const demo = emptyDemo();
  addRegistry(input, demo);
  shRnaPlasmids(input, demo);
  addEntities(input, demo);
  const make = inventoryMakers(input, demo);
  const places = storageTree(make);
  glycerolStocks(make, demo, places.rackB);
  proteinAndCellStocks(make, places.shelf2, places.dewarRack);
  primerPlate(input, make, demo, places.fridgeShelf);
  knockoutStrains(make, demo, places.shelfB);
  return demo;
}
