// Names and ids as an agent reads them, when the platform may leave either out (its OpenAPI document
// requires neither): a placeholder for a missing name, and no "(undefined)" for a missing id.
import { nameWithId } from "../../../core/render.js";
import { oneLine } from "../../../core/untrusted-text.js";

export const UNNAMED = "(unnamed)";

/** The text of a name, or the placeholder when it is missing or blank. */
export function displayName(name: string | null | undefined, placeholder = UNNAMED): string {
  return name?.trim() ? oneLine(name) : placeholder;
}

/** "Name (id)", or just the name when there is no id. */
export function nameAndId(name: string | null | undefined, id: string | null | undefined): string {
  return id ? nameWithId(displayName(name), id) : displayName(name);
}
