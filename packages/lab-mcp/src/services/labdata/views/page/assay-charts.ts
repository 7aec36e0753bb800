// Assay results as charts: one chart per numeric field of each result schema (its unit from the
// schema), a bar per result labelled by what it measured (its first linked entity or text), the runs
// side by side in different colours.
import type { Chart } from "./chart.js";
import { type Data, list, number, record, text } from "./read.js";

const NUMERIC = new Set(["float", "integer"]);
const LABEL_TYPES = [
  "dna_sequence_link",
  "aa_sequence_link",
  "custom_entity_link",
  "entity_link",
  "text",
  "dropdown",
];

/** A field value as text: what the platform shows for it, else its value. */
function shown(value: unknown): string | undefined {
  const field = record(value);
  const raw = field?.value;
  return text(field?.displayValue) ?? text(raw) ?? (typeof raw === "number" ? String(raw) : undefined);
}

/** "Run 12": a run by its number field, else its name or id. */
function runName(run: Data): string | undefined {
  const fields = record(run.fields) ?? {};
  const numbered = Object.entries(fields).find(([name]) => /run\s*(number|no\.?|#)/i.test(name));
  const value = numbered ? shown(numbered[1]) : undefined;
  return value ? `Run ${value}` : (text(run.name) ?? text(run.displayId) ?? text(run.id));
}

export function assayCharts(structured: Data): Chart[] {
  const results = list(structured.assay_results);
  const schemas = new Map(list(structured.schemas).map((schema) => [text(schema.id) ?? "", schema]));
  const runs = new Map(list(structured.runs).map((run) => [text(run.id) ?? "", runName(run)]));
  const bySchema = new Map<string, Data[]>();
  for (const result of results) {
    const id = text(record(result.schema)?.id) ?? "";
    bySchema.set(id, [...(bySchema.get(id) ?? []), result]);
  }
  const charts: Chart[] = [];
  for (const [schemaId, members] of bySchema) {
    const definitions = list(schemas.get(schemaId)?.fieldDefinitions);
    const typed = (types: string[]) => definitions.find((field) => types.includes(text(field.type) ?? ""));
    const labelField = LABEL_TYPES.map((type) => typed([type])).find(Boolean);
    const runField = typed(["assay_run_link"]);
    const numeric = definitions.filter((field) => NUMERIC.has(text(field.type) ?? ""));
    for (const field of numeric) {
      const name = text(field.name);
      if (!name) continue;
      const unit = record(field.unit);
      const categories: string[] = [];
      const series = new Map<string, Map<string, number>>();
      members.forEach((result, index) => {
        const fields = record(result.fields) ?? {};
        const value = number(record(fields[name])?.value);
        if (value === undefined) return;
        const runValue = runField ? record(fields[text(runField.name) ?? ""]) : undefined;
        const runId = text(runValue?.value);
        const group = (runId && runs.get(runId)) ?? shown(runValue) ?? "Results";
        const base = (labelField && shown(fields[text(labelField.name) ?? ""])) ?? `Result ${index + 1}`;
        const values = series.get(group) ?? new Map<string, number>();
        // The same label twice in one run stays two bars, never one merged number.
        let label = base;
        for (let n = 2; values.has(label); n++) label = `${base} (${n})`;
        values.set(label, value);
        series.set(group, values);
        if (!categories.includes(label)) categories.push(label);
      });
      if (categories.length === 0) continue;
      charts.push({
        title: name,
        unit: text(unit?.symbol) ?? text(unit?.name),
        categories,
        series: [...series].map(([group, values]) => ({
          name: group,
          values: categories.map((c) => values.get(c)),
        })),
      });
    }
  }
  return charts;
}
