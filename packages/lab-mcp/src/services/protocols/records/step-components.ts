// A v3 step in the components model (fact sheet 5.2): a list of typed components ordered by order_id.
// Type 6 names the step's section; every other kind the 2018 documents list becomes a line of the
// step's text, so that a quantity, a duration, a link or a command is read, not silently dropped.
import { z } from "zod";
import { durationText } from "./draft-js.js";
import {
  inline,
  integer,
  isRecord,
  type Json,
  list,
  markdown,
  number,
  quantityText,
  text,
} from "./values.js";

const caseSchema = z.object({ title: inline, label: inline });

const componentSchema = z.object({
  type_id: integer(),
  order_id: number,
  source: z.preprocess((value) => (isRecord(value) ? value : {}), z.record(z.string(), z.unknown())),
});

/** A step's components as its section and its text; both undefined when there are none. */
export const componentsSchema = list(componentSchema).transform((components) => {
  let section: string | undefined;
  const parts: string[] = [];
  for (const { type_id, source } of components.sort((a, b) => (a.order_id ?? 0) - (b.order_id ?? 0))) {
    if (type_id === 6) {
      section ??= inline.parse(source.title);
      continue;
    }
    const said = componentText(type_id, source);
    if (said) parts.push(said);
  }
  return { section, text: parts.length > 0 ? parts.join("\n\n") : undefined };
});

/** What an annotation component is called when it carries no title of its own. */
const ANNOTATION_TITLES: Record<number, string> = {
  13: "Comment",
  17: "Expected result",
  19: "Safety",
  26: "Note",
};

/** One component as markdown, by its documented type_id; unknown kinds by their text, if any. */
function componentText(type: number | undefined, source: Json): string | undefined {
  const title = inline.parse(source.title);
  const labelled = (text: string | undefined) => (text && title ? `${title}: ${text}` : text);
  switch (type) {
    case 3: // amount {amount, unit, title}
      return labelled(quantityText(source.amount, source.unit));
    case 24: // temperature {temperature, unit, title}
      return labelled(quantityText(source.temperature, source.unit));
    case 25: // concentration {concentration, unit, title}
      return labelled(quantityText(source.concentration, source.unit));
    case 4: {
      // duration {duration, title}: milliseconds per the 2018 documents (unverified).
      const ms = number.parse(source.duration);
      return labelled(ms === undefined || ms < 0 ? undefined : durationText(ms / 1000));
    }
    case 7: // link {link}
      return linkText(undefined, source.link);
    case 8: // software {name, developer, repository, link, os_name, os_version}
      return named("Software", source.name, source.link, [
        source.developer,
        source.os_name,
        source.os_version,
      ]);
    case 9: // dataset {name, link}
      return named("Dataset", source.name, source.link);
    case 15: {
      // command {name, command, os_name, os_version}
      const command = text.parse(source.command);
      const name = inline.parse(source.name);
      if (!command) return name ? `Command: ${name}` : undefined;
      return name && name !== command ? `Command (${name}): \`${command}\`` : `Command: \`${command}\``;
    }
    case 18: // protocol (a protocol object)
      return named("Protocol", source.title ?? source.name, source.url ?? source.link);
    case 20: // reagent (a reagent object)
      return named("Reagent", source.name, source.url, [
        isRecord(source.vendor) ? source.vendor.name : source.vendor,
        skuOf(source.sku),
      ]);
    case 21: {
      // cases {cases: [{title, label}]}
      const cases = list(caseSchema)
        .parse(source.cases)
        .flatMap((c) => c.title ?? c.label ?? []);
      return cases.length > 0 ? `Cases: ${cases.join("; ")}` : undefined;
    }
    case 22: // go to step {title, step_guid}
      return title ? `Go to step: ${title}` : undefined;
    case 23: {
      // file {source, original_name}
      const name = inline.parse(source.original_name) ?? "file";
      return linkText(`file: ${name}`, source.source) ?? `[file: ${name}]`;
    }
    default: {
      // description (1), expected result (17), safety (19), note (26), comment (13) and the rest; the
      // annotations say what they are, so that the step reads its instruction first (format/step-text.ts).
      const body = markdown.parse(source.description) ?? markdown.parse(source.body);
      const kind = type === undefined ? undefined : ANNOTATION_TITLES[type];
      return body && kind && !title ? `${kind}: ${body}` : labelled(body);
    }
  }
}

function linkText(label: string | undefined, url: unknown): string | undefined {
  const href = text.parse(url);
  if (!href || !/^https?:\/\//i.test(href)) return label;
  return label ? `[${label}](${href})` : href;
}

function named(kind: string, name: unknown, url: unknown, details: unknown[] = []): string | undefined {
  const label = inline.parse(name);
  if (!label) return undefined;
  const extra = details.map((detail) => inline.parse(detail)).filter((d): d is string => d !== undefined);
  const text = `${kind}: ${linkText(label, url) ?? label}`;
  return extra.length > 0 ? `${text} (${extra.join(", ")})` : text;
}

function skuOf(sku: unknown): string | undefined {
  const value = text.parse(sku);
  return value ? `cat. no. ${value}` : undefined;
}
