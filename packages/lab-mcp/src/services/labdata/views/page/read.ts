// Reading the tool's structured content leniently: it is the record as the platform sent it, where any
// field may be missing, null or of another type. A missing value reads as undefined, never as a guess.

export type Data = Record<string, unknown>;

export function record(value: unknown): Data | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : undefined;
}

export function list(value: unknown): Data[] {
  return Array.isArray(value) ? value.flatMap((item) => (record(item) ? [item as Data] : [])) : [];
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value : undefined;
}

export function number(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
