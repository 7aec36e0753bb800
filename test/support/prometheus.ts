// A strict reader of the Prometheus text exposition format (0.0.4), for tests: every line is a
// comment (# HELP / # TYPE), blank, or one sample `name{label="value",...} value`; anything else throws.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const [, keyword, name, rest] = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line) ?? [];
      if (!keyword || !name || !new RegExp(`^${NAME}$`).test(name)) throw new Error(`bad comment: ${line}`);
      if (keyword === "TYPE") {
        if (!TYPES.has(rest ?? "")) throw new Error(`bad type: ${line}`);
        typed.set(name, rest as string);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`bad sample: ${line}`);
    const [, name = "", labelText = "", valueText = ""] = match;
    const value = parseValue(valueText);
    if (value === undefined) throw new Error(`bad value: ${line}`);
    const family = name.replace(/_(bucket|sum|count|total|created)$/, "");
    if (!typed.has(name) && !typed.has(family)) throw new Error(`sample before its TYPE: ${line}`);
    samples.push({ name, labels: parseLabels(labelText, line), value });
  }
  return samples;
}

/** A float as Prometheus reads it (Go's ParseFloat): NaN and Inf in any case, as prom-client writes "Nan". */
function parseValue(text: string): number | undefined {
  const special = /^([+-]?)(inf|nan)$/i.exec(text);
  if (special)
    return special[2]?.toLowerCase() === "nan" ? Number.NaN : special[1] === "-" ? -Infinity : Infinity;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : undefined;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`bad labels: ${line}`);
    const [whole, name = "", value = ""] = match;
    labels[name] = value.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
