// Assay runs and results as an agent reads them: grouped by schema, the schema's fields explained once
// (type, unit, required), then one markdown table per schema with the unit in each column header and
// linked records as "Name (id)".
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
    })),
    ...extra.map((name) => ({ name, header: name })),
  ];
}

type Kind = "run" | "result";

function section(
  kind: Kind,
  schemaId: string,
  schema: AssaySchema | undefined,
  records: Array<AssayRun | AssayResult>,
): string {
  const columns = columnsOf(schema, records);
  const rows = records.map((record) => [
    record.id ?? "",
    ...columns.map((c) => valueText(record.fields?.[c.name])),
    record.projectId ?? "",
    record.createdAt ? utcTime(record.createdAt) : "",
  ]);
  const fields = (schema?.fieldDefinitions ?? []).map(explain);
  return markdown(
    heading(2, nameAndId(schema?.name ?? "Unknown schema", schemaId)),
    fields.length > 0 && ["Fields:", ...fields],
    markdownTable(
      [kind === "run" ? "Run" : "Result", ...columns.map((c) => c.header), "Project", "Created"],
      rows,
    ),
  );
}

/** The records grouped by schema, in the order their schemas first appear. */
export function assayTables(
  kind: Kind,
  records: Array<AssayRun | AssayResult>,
  schemas: Map<string, AssaySchema>,
): string {
  const groups = new Map<string, Array<AssayRun | AssayResult>>();
  for (const record of records) {
    const id = record.schema?.id ?? "unknown";
    groups.set(id, [...(groups.get(id) ?? []), record]);
  }
  return [...groups].map(([id, group]) => section(kind, id, schemas.get(id), group)).join("\n\n");
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
