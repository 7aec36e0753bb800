// The remote's shapes, checked on arrival: anything else is an InvalidResponseError, not a crash.
// Held to the platform's OpenAPI document (test/contract/benchling-openapi.yaml), which requires no
// field of these records: every field is optional, null is accepted wherever a value may be missing,
// and a field of an unexpected type is dropped rather than failing the whole answer. Unknown fields
// are kept for the json format.
import { z } from "zod";

/** A value read leniently: absent, null or of another type all read as undefined. */
export const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
export const text = lenient(z.string().nullable());
export const integer = lenient(z.number().int().nullable());
export const flag = lenient(z.boolean().nullable());
export const list = <T extends z.ZodType>(item: T) =>
  lenient(
    z
      .array(z.unknown())
      .nullable()
      .transform((items) =>
        items?.flatMap((value) => {
          const parsed = item.safeParse(value);
          return parsed.success ? [parsed.data as z.output<T>] : [];
        }),
      ),
  );

export const archiveRecord = lenient(z.looseObject({ reason: text }).nullable());

/** The document's UserSummary / PartySummary: id, handle, name, all optional. */
export const partySummary = lenient(z.looseObject({ id: text, handle: text, name: text }).nullable());

export const userSchema = z.looseObject({ id: text, name: text, email: text, handle: text });
export type LabUser = z.infer<typeof userSchema>;

export const annotationSchema = z.looseObject({
  start: integer,
  end: integer,
  strand: integer,
  type: text,
  name: text,
  color: text,
});
export type Annotation = z.infer<typeof annotationSchema>;

export const dnaSequenceSchema = z.looseObject({
  id: text,
  name: text,
  bases: text,
  length: integer,
  isCircular: flag,
  aliases: list(z.string()),
  folderId: text,
  entityRegistryId: text,
  annotations: list(annotationSchema),
  primers: lenient(z.array(z.unknown()).nullable()),
  translations: lenient(z.array(z.unknown()).nullable()),
  creator: partySummary,
  createdAt: text,
  modifiedAt: text,
  webURL: text,
  archiveRecord,
});
export type DnaSequence = z.infer<typeof dnaSequenceSchema>;

export const projectSchema = z.looseObject({ id: text, name: text, archiveRecord, owner: partySummary });
export type Project = z.infer<typeof projectSchema>;

export const folderSchema = z.looseObject({
  id: text,
  name: text,
  projectId: text,
  parentFolderId: text,
  archiveRecord,
});
export type Folder = z.infer<typeof folderSchema>;

/** TokenResponse: every field optional in the document; a missing access token is refused by the caller. */
export const tokenResponseSchema = z.looseObject({
  access_token: text,
  token_type: text,
  expires_in: lenient(z.union([z.number(), z.string()]).nullable()),
});

/**
 * A list page: the items under their resource key (a page without it has no items), and the cursor of
 * the next page ("" or absent at the end). An item that is not an object is skipped.
 */
export function listSchema<T extends z.ZodType>(key: string, item: T) {
  return z.looseObject({ [key]: list(item), nextToken: text });
}
