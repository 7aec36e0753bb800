// The repository's records as the tools use them, one zod schema each that both reads every recorded
// variant (fact sheet sections 3 to 8 and 12) and types the record, and whose output side is the
// tools' output schema. Nothing but an id is required; a value of the wrong type reads as missing
// (values.ts); the fields a variant names otherwise (title_html, authors_list, first_name...) are
// brought to their one name in a preprocess; rich text arrives as markdown whatever form it was sent in.
import { z } from "zod";
import { componentsSchema } from "./step-components.js";
import {
  doi,
  flag,
  inline,
  integer,
  isRecord,
  lenient,
  list,
  listIfSent,
  markdown,
  number,
  quantityText,
  requiredInline,
  text,
  unixSeconds,
  wholeNumber,
} from "./values.js";

/** A record's fields brought to their one name by `aliases` before they are read. */
const aliased = <T extends z.ZodType>(aliases: (value: Record<string, unknown>) => object, record: T) =>
  z.preprocess((value) => (isRecord(value) ? { ...value, ...aliases(value) } : value), record);

/** A person's name from `name`, or from `first_name` + `last_name` (v4); undefined when both are blank. */
function nameOf(value: Record<string, unknown>): string | undefined {
  const parts = [text.parse(value.first_name), text.parse(value.last_name)].filter(Boolean);
  return inline.parse(value.name) ?? inline.parse(parts.join(" "));
}

export const personSchema = aliased(
  (value) => ({ name: nameOf(value) }),
  z.object({ name: z.string(), username: text, affiliation: inline }),
);
export type Person = z.infer<typeof personSchema>;

/** The counters of `stats`, flattened: `number_of_forks: {private, public}` becomes two numbers. */
const stats = z.preprocess((value) => {
  if (!isRecord(value)) return undefined;
  const counts = Object.entries(value).flatMap(([key, count]) =>
    isRecord(count)
      ? Object.entries(count).map(([kind, n]) => [`${key}_${kind}`, n] as const)
      : [[key, count] as const],
  );
  return Object.fromEntries(
    counts.flatMap(([key, count]) => {
      const n = number.parse(count);
      return n === undefined ? [] : [[key, n]];
    }),
  );
}, z.record(z.string(), z.number()).optional());

const slug = z.string();

const summaryFields = {
  id: wholeNumber(0),
  title: z.string(),
  uri: slug.describe("The uri slug; the id as text when the repository sent none."),
  url: text,
  doi: doi.describe("Without its resolver, e.g. 10.17504/protocols.io.abc123/v2."),
  version_id: integer(0),
  creator: lenient(personSchema),
  authors: list(personSchema),
  description: markdown.describe("Markdown."),
  created_on: unixSeconds.describe("Unix seconds."),
  published_on: unixSeconds.describe("Unix seconds."),
  public: flag,
  is_bookmarked: flag.describe("Whether you bookmarked it, where the repository says."),
  number_of_steps: integer(0),
  stats,
};

/** What a list item and a record both say: the title from `title_html` too, authors from `authors_list`. */
function summaryAliases(value: Record<string, unknown>) {
  const counters = isRecord(value.stats) ? value.stats : {};
  return {
    title: inline.parse(value.title) ?? inline.parse(value.title_html) ?? "(untitled)",
    uri: text.parse(value.uri) ?? String(wholeNumber(0).safeParse(value.id).data),
    authors: value.authors ?? value.authors_list,
    number_of_steps: counters.number_of_steps ?? value.number_of_steps,
  };
}

export const protocolSummarySchema = aliased(summaryAliases, z.object(summaryFields));
export type ProtocolSummary = z.infer<typeof protocolSummarySchema>;

/** A protocol in the short lists (a user's, a workspace's): who it is, and open to the rest of its summary. */
export const protocolItemSchema = z.looseObject({
  id: summaryFields.id,
  title: summaryFields.title,
  uri: slug,
  public: flag,
  is_bookmarked: flag,
});

/** A reagent: its vendor a name or a user-like object (v3), its catalog number `sku`, an amount if said. */
const materialAliases = (value: Record<string, unknown>) => ({
  vendor: isRecord(value.vendor) ? nameOf(value.vendor) : inline.parse(value.vendor),
  amount: text.parse(value.amount) ?? quantityText(value.quantity, value.unit),
});
const materialFields = {
  name: requiredInline,
  vendor: z.string().optional(),
  sku: text,
  amount: z.string().optional(),
};

export const materialSchema = aliased(materialAliases, z.object(materialFields));
export type Material = z.infer<typeof materialSchema>;

/** A material as protocols_get_materials lists it, open like every listed record. */
export const materialItemSchema = z.looseObject(materialFields);

/** The materials of a protocol record, their amount described. */
const recordMaterialSchema = aliased(
  materialAliases,
  z.object({ ...materialFields, amount: materialFields.amount.describe("How much is used, as written.") }),
);

export const versionSchema = z.object({ version_id: wholeNumber(0), title: inline, created_on: unixSeconds });
export type Version = z.infer<typeof versionSchema>;

/** A version as protocols_list_versions lists it: with its DOI, and the reference that reads it. */
export const listedVersionSchema = z.looseObject({
  ...versionSchema.shape,
  doi: z.string().optional(),
  protocol: z.string(),
});

/** A step as sent (not yet ordered): v4 `step` text, or v3 components (section title, description...). */
export const stepSchema = aliased(
  (value) => {
    const components = componentsSchema.parse(value.components);
    return {
      section: inline.parse(value.section) ?? components.section,
      step: markdown.parse(value.step) ?? components.text ?? "",
    };
  },
  z.object({
    id: integer(),
    guid: text,
    previous_id: integer(),
    previous_guid: text,
    number: text.describe("Dotted, e.g. 2.1."),
    section: z.string().optional(),
    step: z.string().describe("Markdown; empty for a step that only names its section."),
  }),
);
export type Step = z.infer<typeof stepSchema>;

export const protocolSchema = aliased(
  (value) => ({
    ...summaryAliases(value),
    // The steps sent with the record count them; otherwise the record's own count.
    ...(Array.isArray(value.steps) ? { number_of_steps: value.steps.filter(isRecord).length } : {}),
  }),
  z.object({
    ...summaryFields,
    guidelines: markdown,
    before_start: markdown,
    warning: markdown,
    materials_text: markdown,
    materials: list(recordMaterialSchema),
    versions: list(versionSchema),
    steps: listIfSent(stepSchema).describe("Left out when the repository sent none with the protocol."),
  }),
);
export type Protocol = z.infer<typeof protocolSchema>;

export const profileSchema = aliased(
  (value) => ({ name: nameOf(value) }),
  z.object({ username: text, name: z.string().optional(), email: text, affiliation: inline }),
);
export type Profile = z.infer<typeof profileSchema>;
