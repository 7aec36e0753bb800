// Facts of a sequence that the platform may leave out or send as placeholders.
import type { DnaSequence } from "../records/platform.js";

/** "circular", "linear", or undefined when the platform did not say. */
export function topology(sequence: Pick<DnaSequence, "isCircular">): string | undefined {
  if (sequence.isCircular === true) return "circular";
  return sequence.isCircular === false ? "linear" : undefined;
}

/**
 * The length in bases: the platform's `length`, unless it is missing or 0 while bases came along (the
 * OpenAPI document's own example sends length 0 with 55 bases); undefined when neither is known.
 */
export function sequenceLength(sequence: Pick<DnaSequence, "length" | "bases">): number | undefined {
  const basesLength = sequence.bases ? sequence.bases.length : undefined;
  if (typeof sequence.length === "number" && (sequence.length > 0 || !basesLength)) return sequence.length;
  return basesLength;
}
