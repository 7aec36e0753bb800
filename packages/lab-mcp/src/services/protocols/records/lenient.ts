// Readers of single values as the repository sends them in its different eras (fact sheet sections 1,
// 3.3, 4.1 and 12): flags as true, 1 or "1"; numbers as numbers or numeric strings; null, "" and
// values of another type read as missing, never as a failure.

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** true/1/"1"/"true" and false/0/"0"/"false"; anything else is unknown. */
export function flag(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === "1" || value === "true") return true;
  if (value === false || value === 0 || value === "0" || value === "false") return false;
  return undefined;
}

/** A finite number, from a number or a numeric string. */
export function numberOf(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

/** A whole number of at least `min`. */
export function integerOf(value: unknown, min = Number.MIN_SAFE_INTEGER): number | undefined {
  const number = numberOf(value);
  return number !== undefined && Number.isInteger(number) && number >= min ? number : undefined;
}

/** A string that is not blank, trimmed. */
export function stringOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Unix seconds; 0 means "never" (an unpublished protocol's published_on). */
export function unixSecondsOf(value: unknown): number | undefined {
  return integerOf(value, 1);
}

/** The objects of an array; anything else is an empty list. */
export function recordsOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/**
 * A DOI without its resolver ("dx.doi.org/", "https://doi.org/", "doi:"), its version suffix ("/v3")
 * kept: protocols.io registers one DOI per version.
 */
export function doiOf(value: unknown): string | undefined {
  const text = stringOf(value);
  if (!text) return undefined;
  const bare = text.replace(/^(https?:\/\/)?(dx\.)?doi\.org\//i, "").replace(/^doi:\s*/i, "");
  return bare === "" ? undefined : bare;
}
