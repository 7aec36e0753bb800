// The one renderer of a platform Field (its OpenAPI document's Field: value, type, displayValue,
// textValue), for tasks, requests, entities and assay tables alike. The document lets `value` be text,
// a number, a flag, a list or an object, and the display texts be null or absent: the agent reads the
// display text where there is one, a link as "Name (id)", a list item by item, and an object by its
// name and id or as compact JSON, never "[object Object]".

import { oneLine } from "../../../core/untrusted-text.js";
import { nameAndId } from "./labels.js";

export interface FieldLike {
  value?: unknown;
  type?: unknown;
  displayValue?: unknown;
  textValue?: unknown;
}

/** Longest text an object value is shown as. */
const MAX_OBJECT_TEXT = 300;

export function fieldText(field: FieldLike | null | undefined): string {
  return oneLine(rawFieldText(field));
}

function rawFieldText(field: FieldLike | null | undefined): string {
  if (!field || typeof field !== "object") return "";
  const display = shown(field.displayValue) ?? shown(field.textValue);
  const raw = field.value;
  if (typeof raw === "string" && typeof field.type === "string" && field.type.endsWith("_link")) {
    return display && display !== raw ? nameAndId(display, raw) : raw;
  }
  // A number or a flag as the platform holds it (a table's header carries the unit); text, an option
  // or an object by its display text where there is one.
  if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  if (display !== undefined) return display;
  return valueText(raw);
}

function shown(text: unknown): string | undefined {
  return typeof text === "string" && text.trim() ? text : undefined;
}

function valueText(raw: unknown): string {
  if (raw === null || raw === undefined) return "";
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  if (Array.isArray(raw)) return raw.map(valueText).filter(Boolean).join(", ");
  if (typeof raw === "object") {
    const { id, name } = raw as { id?: unknown; name?: unknown };
    if (typeof name === "string" && name.trim()) return typeof id === "string" ? nameAndId(name, id) : name;
    if (typeof id === "string") return id;
    const text = JSON.stringify(raw);
    return text.length > MAX_OBJECT_TEXT ? `${text.slice(0, MAX_OBJECT_TEXT - 3)}...` : text;
  }
  return "";
}
