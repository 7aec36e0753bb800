// A calendar date as a tool input: YYYY-MM-DD, a real day (not 2025-02-30).
import { InvalidInputError } from "../../core/errors.js";
import { boundedString, DAY as DATE } from "../../core/inputs.js";

/** 2025-02-28 is; 2025-02-30 is not (Date would roll it over to March). */
function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

export function dateInput(description: string) {
  return boundedString({
    description,
    max: 10,
    pattern: { regex: DATE, message: "must be a date like 2025-06-30" },
  }).refine((value) => !DATE.test(value) || isCalendarDay(value), {
    message: "must be a real calendar date",
  });
}

/** Refuses a range whose first day is after its last, before any request. */
export function checkDayRange(
  tool: string,
  [firstName, first]: [string, string | undefined],
  [lastName, last]: [string, string | undefined],
): void {
  if (first && last && first > last) {
    throw new InvalidInputError(
      `Error: Invalid input for ${tool}: ${firstName}: ${first} is after ${lastName} ${last}.`,
    );
  }
}
