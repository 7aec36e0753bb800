// GenBank flat files read into records: LOCUS name and topology, DEFINITION, the feature table (every
// location form of the INSDC grammar, qualifiers over several lines, quoted or not) and the bases,
// for as many LOCUS ... // records as the text holds. One pass over the lines, no pattern that can
// backtrack, so the work grows with the text and no more; Biopython's reading rules where the format
// leaves room (continuation lines joined with a space, "" for a quote, /translation without spaces).
import { LocationError, type ParsedLocation, parseLocation } from "./location.js";

export interface Qualifier {
  name: string;
  /** null for a qualifier without a value, such as /pseudo. */
  value: string | null;
}

export interface Feature {
  key: string;
  /** The location as written (continuation lines joined). */
  location: string;
  parsed: ParsedLocation;
  qualifiers: Qualifier[];
  /** The line the feature starts on, for messages. */
  line: number;
}

export interface GenBankRecord {
  name: string;
  definition: string | undefined;
  isCircular: boolean | undefined;
  bases: string;
  features: Feature[];
  /** Header sections the record has besides LOCUS, DEFINITION, FEATURES and ORIGIN, by keyword. */
  otherHeaders: string[];
}

export class GenBankSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Qualifier lines start at column 22. */
const QUALIFIER_INDENT = 21;

interface OpenFeature {
  key: string;
  locationParts: string[];
  qualifiers: Array<{ name: string; parts: string[] | null }>;
  line: number;
}

export function readGenBank(text: string): GenBankRecord[] {
  const records: GenBankRecord[] = [];
  let record: GenBankRecord | undefined;
  let section = "";
  let definition: string[] = [];
  let bases: string[] = [];
  let feature: OpenFeature | undefined;
  /** The quoted qualifier value still open across lines. */
  let openQuote = false;

  const closeFeature = () => {
    if (!feature || !record) return;
    const location = feature.locationParts.join("");
    let parsed: ParsedLocation;
    try {
      parsed = parseLocation(location);
    } catch (error) {
      if (error instanceof LocationError)
        throw new GenBankSyntaxError(
          feature.line,
          `the location of ${feature.key} is not valid: ${error.message}`,
        );
      throw error;
    }
    record.features.push({
      key: feature.key,
      location,
      parsed,
      qualifiers: feature.qualifiers.map(({ name, parts }) => ({ name, value: qualifierValue(name, parts) })),
      line: feature.line,
    });
    feature = undefined;
    openQuote = false;
  };
  const closeRecord = () => {
    if (!record) return;
    closeFeature();
    record.definition = definition.length > 0 ? definition.join(" ") : undefined;
    record.bases = bases.join("").toUpperCase();
    records.push(record);
    record = undefined;
    section = "";
  };

  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const lineNumber = i + 1;
    const line = trimEnd(lines[i] as string);
    if (line.startsWith("LOCUS")) {
      closeRecord();
      const words = line.split(/\s+/);
      record = {
        name: words[1] ?? "",
        definition: undefined,
        isCircular: words.includes("circular") ? true : words.includes("linear") ? false : undefined,
        bases: "",
        features: [],
        otherHeaders: [],
      };
      definition = [];
      bases = [];
      section = "LOCUS";
      continue;
    }
    if (!record) continue;
    if (line.startsWith("//")) {
      closeRecord();
      continue;
    }
    if (line.length > 0 && line[0] !== " ") {
      closeFeature();
      const keyword = line.slice(0, 12).trim().split(" ")[0] ?? "";
      section = keyword;
      if (keyword === "DEFINITION") definition.push(line.slice(12).trim());
      else if (keyword !== "FEATURES" && keyword !== "ORIGIN" && !record.otherHeaders.includes(keyword))
        record.otherHeaders.push(keyword);
      continue;
    }
    if (section === "ORIGIN") {
      bases.push(line.replace(/[\s\d]+/g, ""));
      continue;
    }
    if (section === "DEFINITION") {
      definition.push(line.trim());
      continue;
    }
    if (section !== "FEATURES" || line.trim() === "") continue;
    const indent = leadingSpaces(line);
    const content = line.slice(indent);
    if (indent < QUALIFIER_INDENT && !openQuote) {
      closeFeature();
      const gap = content.search(/\s/);
      const key = gap === -1 ? content : content.slice(0, gap);
      const location = gap === -1 ? "" : content.slice(gap).trim();
      feature = { key, locationParts: location ? [location] : [], qualifiers: [], line: lineNumber };
      continue;
    }
    if (!feature) throw new GenBankSyntaxError(lineNumber, "a qualifier line before any feature");
    const last = feature.qualifiers.at(-1);
    if (!openQuote && content.startsWith("/")) {
      const equals = content.indexOf("=");
      const name = equals === -1 ? content.slice(1) : content.slice(1, equals);
      if (equals === -1) {
        feature.qualifiers.push({ name, parts: null });
        continue;
      }
      const value = content.slice(equals + 1).trimStart();
      feature.qualifiers.push({ name, parts: [value] });
      openQuote = value.startsWith('"') && !(value.length > 1 && value.endsWith('"'));
      continue;
    }
    if (!last) {
      // The location goes on over this line.
      feature.locationParts.push(content);
      continue;
    }
    if (!last.parts) throw new GenBankSyntaxError(lineNumber, `/${last.name} has no value to continue`);
    last.parts.push(content);
    if (openQuote && content.endsWith('"')) openQuote = false;
  }
  closeRecord();
  return records;
}

/** A qualifier's value: lines joined with a space, outer quotes off, "" read as ". */
function qualifierValue(name: string, parts: string[] | null): string | null {
  if (!parts) return null;
  let value = parts.join(" ");
  if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  value = value.replaceAll('""', '"');
  // A protein's letters wrap without meaning spaces.
  return name === "translation" ? value.replaceAll(" ", "") : value;
}

function leadingSpaces(line: string): number {
  let n = 0;
  while (n < line.length && line[n] === " ") n++;
  return n;
}

/** Trailing white space and a carriage return off, without a pattern. */
function trimEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\r" || line[end - 1] === "\t")) end--;
  return end === line.length ? line : line.slice(0, end);
}
