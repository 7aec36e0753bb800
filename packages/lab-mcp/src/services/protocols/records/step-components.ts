// A v3 step in the components model (fact sheet 5.2): a list of typed components ordered by order_id.
// Type 6 names the step's section; every other kind the 2018 documents list becomes a line of the
// step's text, so that a quantity, a duration, a link or a command is read, not silently dropped.
import { durationText } from "./draft-js.js";
import { integerOf, isRecord, type Json, numberOf, recordsOf, stringOf } from "./lenient.js";
import { inlineText, richText } from "./rich-text.js";

export interface StepComponents {
  section?: string;
  text?: string;
}

/** The section and the text of a step's components; both undefined when there are none. */
export function readComponents(value: unknown): StepComponents {
  const components = recordsOf(value).sort(
    (a, b) => (numberOf(a.order_id) ?? 0) - (numberOf(b.order_id) ?? 0),
  );
  let section: string | undefined;
  const parts: string[] = [];
  for (const component of components) {
    const source = isRecord(component.source) ? component.source : {};
    const type = integerOf(component.type_id);
    if (type === 6) {
      section ??= inlineText(source.title);
      continue;
    }
    const text = componentText(type, source);
    if (text) parts.push(text);
  }
  return { section, text: parts.length > 0 ? parts.join("\n\n") : undefined };
}

/** One component as markdown, by its documented type_id; unknown kinds by their text, if any. */
function componentText(type: number | undefined, source: Json): string | undefined {
  const title = inlineText(source.title);
  const labelled = (text: string | undefined) => (text && title ? `${title}: ${text}` : text);
  switch (type) {
    case 3: // amount {amount, unit, title}
      return labelled(quantity(source.amount, source.unit));
    case 24: // temperature {temperature, unit, title}
      return labelled(quantity(source.temperature, source.unit));
    case 25: // concentration {concentration, unit, title}
      return labelled(quantity(source.concentration, source.unit));
    case 4: {
      // duration {duration, title}: milliseconds per the 2018 documents (unverified).
      const ms = numberOf(source.duration);
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
      const command = stringOf(source.command);
      const name = inlineText(source.name);
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
      const cases = recordsOf(source.cases)
        .map((c) => inlineText(c.title) ?? inlineText(c.label))
        .filter((c): c is string => c !== undefined);
      return cases.length > 0 ? `Cases: ${cases.join("; ")}` : undefined;
    }
    case 22: // go to step {title, step_guid}
      return title ? `Go to step: ${title}` : undefined;
    case 23: {
      // file {source, original_name}
      const name = inlineText(source.original_name) ?? "file";
      return linkText(`file: ${name}`, source.source) ?? `[file: ${name}]`;
    }
    default:
      // description (1), expected result (17), safety (19), note (26), comment (13) and the rest.
      return labelled(richText(source.description) ?? richText(source.body));
  }
}

/** "20 µL"; a bare numeric unit id (a row of /api/v1/units) is left out, as in Draft.js entities. */
function quantity(value: unknown, unit: unknown): string | undefined {
  const amount = stringOf(value);
  if (!amount) return undefined;
  const said = stringOf(unit);
  return said && !/^\d+$/.test(said) ? `${amount} ${said}` : amount;
}

function linkText(text: string | undefined, url: unknown): string | undefined {
  const href = stringOf(url);
  if (!href || !/^https?:\/\//i.test(href)) return text;
  return text ? `[${text}](${href})` : href;
}

function named(kind: string, name: unknown, url: unknown, details: unknown[] = []): string | undefined {
  const label = inlineText(name);
  if (!label) return undefined;
  const extra = details.map(inlineText).filter((d): d is string => d !== undefined);
  const text = `${kind}: ${linkText(label, url) ?? label}`;
  return extra.length > 0 ? `${text} (${extra.join(", ")})` : text;
}

function skuOf(sku: unknown): string | undefined {
  const value = stringOf(sku);
  return value ? `cat. no. ${value}` : undefined;
}
