// The remote's shapes, checked on arrival: anything else is an InvalidResponseError, not a crash.
import { z } from "zod";

const archiveRecord = z.object({ reason: z.string() }).passthrough().nullish();

export const userSchema = z
  .object({ id: z.string(), name: z.string(), email: z.string().nullish(), handle: z.string().nullish() })
  .passthrough();
export type LabUser = z.infer<typeof userSchema>;

export const annotationSchema = z
  .object({
    start: z.number(),
    end: z.number(),
    strand: z.number().nullish(),
    type: z.string().nullish(),
    name: z.string().nullish(),
    color: z.string().nullish(),
  })
  .passthrough();
export type Annotation = z.infer<typeof annotationSchema>;

export const dnaSequenceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    bases: z.string(),
    length: z.number().int(),
    isCircular: z.boolean(),
    aliases: z.array(z.string()).nullish(),
    folderId: z.string().nullish(),
    entityRegistryId: z.string().nullish(),
    annotations: z.array(annotationSchema).nullish(),
    primers: z.array(z.unknown()).nullish(),
    translations: z.array(z.unknown()).nullish(),
    creator: z
      .object({ id: z.string(), handle: z.string().nullish(), name: z.string().nullish() })
      .passthrough()
      .nullish(),
    createdAt: z.string().nullish(),
    modifiedAt: z.string().nullish(),
    webURL: z.string().nullish(),
    archiveRecord,
  })
  .passthrough();
export type DnaSequence = z.infer<typeof dnaSequenceSchema>;

export const projectSchema = z
  .object({ id: z.string(), name: z.string(), archiveRecord, owner: z.unknown().optional() })
  .passthrough();
export type Project = z.infer<typeof projectSchema>;

export const folderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    projectId: z.string().nullish(),
    parentFolderId: z.string().nullish(),
    archiveRecord,
  })
  .passthrough();
export type Folder = z.infer<typeof folderSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
});

/** A list page: the items under their resource key, and the cursor of the next page ("" or absent at the end). */
export function listSchema<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ [key]: z.array(item), nextToken: z.string().nullish() } as { [k in K]: z.ZodArray<T> } & {
    nextToken: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  });
}
