// Assay runs and results as an agent reads them: grouped by schema, the schema's fields explained once
// (type, unit, required), then one markdown table per schema with the unit in each column header and
// linked records as "Name (id)". A results table leads with what was measured: no id column (json has
// the ids), and the run, project or time shared by every row said once above it.
import { heading, markdown, utcTime } from "../../../core/render.js";
import { oneLine } from "../../../core/untrusted-text.js";
import type { AssayResult, AssayRun, AssaySchema, FieldDefinition, FieldValue } from "../records/notebook.js";
import { fieldText } from "./field.js";
import { nameAndId } from "./labels.js";
import { markdownTable } from "./table-cells.js";

const KIND: Record<string, string> = {
  text: "text",
  long_text: "text",
  integer: "whole number",
  float: "number",
  date: "date",
  datetime: "date and time",
  boolean: "yes or no",
  dropdown: "one of a list of choices",
  dna_sequence_link: "link to a DNA sequence",
  aa_sequence_link: "link to an AA sequence",
  custom_entity_link: "link to an entity",
  entity_link: "link to an entity",
  assay_run_link: "link to an assay run",
  entry_link: "link to a notebook entry",
  storage_link: "link to a container or location",
};

const unitOf = (field: FieldDefinition): string | undefined =>
  field.unit?.symbol ?? field.unit?.name ?? undefined;

/** "Editing efficiency: number in % (required)". */
function explain(field: FieldDefinition): string {
  const unit = unitOf(field);
  const kind = KIND[field.type ?? ""] ?? (field.type ?? "value").replace(/_/g, " ");
  const parts = [
    unit ? `${kind} in ${unit}` : kind,
    typeof field.decimalPrecision === "number" &&
      `${field.decimalPrecision} ${field.decimalPrecision === 1 ? "decimal" : "decimals"}`,
    field.isRequired && "required",
  ].filter(Boolean);
  return oneLine(`- **${field.name ?? field.id ?? "field"}**: ${parts.join(", ")}`);
}

/** A value as a cell: a link as "Name (id)", a number as is (its unit is in the column header). */
export function valueText(value: FieldValue | undefined): string {
  return fieldText(value);
}

function columnsOf(
  schema: AssaySchema | undefined,
  records: Array<{ fields?: Record<string, FieldValue> | null }>,
) {
  const defined = (schema?.fieldDefinitions ?? []).filter((f) => f.name);
  const names = new Set(defined.map((f) => f.name as string));
  const extra = [...new Set(records.flatMap((r) => Object.keys(r.fields ?? {})))].filter(
    (n) => !names.has(n),
  );
  return [
    ...defined.map((f) => ({
      name: f.name as string,
      header: unitOf(f) ? `${f.name} (${unitOf(f)})` : (f.name as string),
      isRun: f.type === "assay_run_link",
    })),
    ...extra.map((name) => ({ name, header: name, isRun: false })),
  ];
}

type Kind = "run" | "result";

function section(
  kind: Kind,
  schemaId: string,
  schema: AssaySchema | undefined,
  records: Array<AssayRun | AssayResult>,
  runNamedAbove: boolean,
): string {
  const fieldColumns: Column[] = columnsOf(schema, records).map((c) => ({
    header: c.header,
    cell: (record) => valueText(record.fields?.[c.name]),
    said: kind === "result" && c.isRun,
  }));
  const columns: Column[] = [
    ...(kind === "run"
      ? [{ header: "Run", cell: (record: AssayRecord) => record.id ?? "", said: false }]
      : []),
    ...fieldColumns,
    { header: "Project", cell: (record) => record.projectId ?? "", said: kind === "result" },
    {
      header: "Created",
      cell: (record) => (record.createdAt ? utcTime(record.createdAt) : ""),
      said: kind === "result",
    },
    // Who created a run; said once above the table when one person created them all.
    ...(kind === "run"
      ? [
          {
            header: "Created by",
            cell: (record: AssayRecord) => personText(record.creator),
            said: true,
          },
        ]
      : []),
  ];
  // A value every row shares (two rows or more) is said once above the table, not on every row.
  const shared = columns.filter((c) => c.said && records.length > 1 && sharedValue(c, records) !== undefined);
  const table = columns.filter((c) => !shared.includes(c));
  // The run the answer already names above every table is not said again.
  const toSay = shared.filter((c) => !(runNamedAbove && fieldColumns.includes(c) && c.said));
  const fields = (schema?.fieldDefinitions ?? []).map(explain);
  return markdown(
    heading(2, nameAndId(schema?.name ?? "Unknown schema", schemaId)),
    fields.length > 0 && ["Fields:", ...fields],
    toSay.length > 0 && [
      `Every ${kind} below has:`,
      ...toSay.map((c) => oneLine(`- **${c.header}**: ${sharedValue(c, records)}`)),
    ],
    markdownTable(
      table.map((c) => c.header),
      records.map((record) => table.map((c) => c.cell(record))),
    ),
  );
}

type AssayRecord = AssayRun | AssayResult;

interface Column {
  header: string;
  cell(record: AssayRecord): string;
  /** May be said once above the table when every row has the same value. */
  said: boolean;
}

/** "Dana Reyes (ent_1)"; the handle or id alone when the name is missing; "" for nobody. */
function personText(
  person: { id?: string | null; name?: string | null; handle?: string | null } | null | undefined,
) {
  if (!person) return "";
  const name = person.name ?? person.handle;
  return name ? nameAndId(name, person.id) : (person.id ?? "");
}

/** The one non-empty value of a column in every record, if there is one. */
function sharedValue(column: Column, records: AssayRecord[]): string | undefined {
  const values = new Set(records.map((record) => column.cell(record)));
  const [only] = values;
  return values.size === 1 && only ? only : undefined;
}

/** The records grouped by schema, in the order their schemas first appear. */
export function assayTables(
  kind: Kind,
  records: Array<AssayRun | AssayResult>,
  schemas: Map<string, AssaySchema>,
  /** The answer names the run above the tables (it was asked for): a column of it is left out. */
  runNamedAbove = false,
): string {
  const groups = new Map<string, Array<AssayRun | AssayResult>>();
  for (const record of records) {
    const id = record.schema?.id ?? "unknown";
    groups.set(id, [...(groups.get(id) ?? []), record]);
  }
  return [...groups]
    .map(([id, group]) => section(kind, id, schemas.get(id), group, runNamedAbove))
    .join("\n\n");
}

/** "12", "run 12", "#12" and "Run #12" all name run number 12. */
export function runNumberOf(text: string): string {
  return text.replace(/^\s*(run\s*)?#?\s*/i, "").trim();
}

/** The number or name a run is known by ("12"), from a field named like "Run number" or "Name". */
export function runNumber(run: AssayRun): string | undefined {
  for (const [name, value] of Object.entries(run.fields ?? {})) {
    if (
      /^(run\s*(number|no\.?|#|name|id)|name)$/i.test(name.trim()) &&
      value?.value !== null &&
      value?.value !== undefined
    )
      return String(value.value);
  }
  return undefined;
}

/** "NGS Amplicon Run 12". */
export function runLabel(run: AssayRun): string {
  const number = runNumber(run);
  const schema = run.schema?.name ?? "Assay run";
  return number ? `${schema} ${number}` : schema;
}
