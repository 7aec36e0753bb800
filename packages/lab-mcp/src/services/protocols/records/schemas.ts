// The records of protocols.ts as zod schemas, for the tools' output schemas: each describes exactly what
// the lenient readers there build (a field they may leave out is optional, nothing else is added).
// The tools' replies are typed against these, so a reader and its schema cannot drift apart unseen.
import { z } from "zod";
import type { Material, Person, Profile, Protocol, ProtocolSummary, Step } from "./protocols.js";

export const personSchema = z.object({
  name: z.string(),
  username: z.string().optional(),
  affiliation: z.string().optional(),
});

export const protocolSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  uri: z.string().describe("The uri slug; the id as text when the repository sent none."),
  url: z.string().optional(),
  doi: z.string().optional().describe("Without its resolver, e.g. 10.17504/protocols.io.abc123/v2."),
  version_id: z.number().int().optional(),
  creator: personSchema.optional(),
  authors: z.array(personSchema),
  description: z.string().optional().describe("Markdown."),
  created_on: z.number().int().optional().describe("Unix seconds."),
  published_on: z.number().int().optional().describe("Unix seconds."),
  public: z.boolean().optional(),
  is_bookmarked: z.boolean().optional().describe("Whether you bookmarked it, where the repository says."),
  number_of_steps: z.number().int().optional(),
  stats: z.record(z.string(), z.number()).optional(),
});

export const stepSchema = z.object({
  id: z.number().int().optional(),
  guid: z.string().optional(),
  previous_id: z.number().int().optional(),
  previous_guid: z.string().optional(),
  number: z.string().optional().describe("Dotted, e.g. 2.1."),
  section: z.string().optional(),
  step: z.string().describe("Markdown; empty for a step that only names its section."),
});

export const protocolSchema = protocolSummarySchema.extend({
  guidelines: z.string().optional(),
  before_start: z.string().optional(),
  warning: z.string().optional(),
  materials_text: z.string().optional(),
  materials: z.array(
    z.object({
      name: z.string(),
      vendor: z.string().optional(),
      sku: z.string().optional(),
      amount: z.string().optional().describe("How much is used, as written."),
    }),
  ),
  versions: z.array(
    z.object({
      version_id: z.number().int(),
      title: z.string().optional(),
      created_on: z.number().int().optional(),
    }),
  ),
  steps: z.array(stepSchema).optional().describe("Left out when the repository sent none with the protocol."),
});

export const profileSchema = z.object({
  username: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  affiliation: z.string().optional(),
});

// The same fields on both sides, checked by the compiler: a field added to a record of protocols.ts
// without its schema here (or the other way) does not build.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const sameFields: [
  SameKeys<z.infer<typeof personSchema>, Person>,
  SameKeys<z.infer<typeof protocolSummarySchema>, ProtocolSummary>,
  SameKeys<z.infer<typeof stepSchema>, Step>,
  SameKeys<z.infer<typeof protocolSchema>, Protocol>,
  SameKeys<z.infer<typeof protocolSchema>["materials"][number], Material>,
  SameKeys<z.infer<typeof profileSchema>, Profile>,
] = [true, true, true, true, true, true];
void sameFields;
