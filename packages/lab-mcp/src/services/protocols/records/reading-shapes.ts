// Output shapes of the reading tools added with the writing ones: protocols in a list, workspaces,
// materials and versions, as structured content. Records keep the fields the repository sent.
import { z } from "zod";

export const protocolItemShape = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  uri: z.string(),
  public: z.boolean().optional(),
  is_bookmarked: z.boolean().optional(),
});

export const workspaceShape = z.looseObject({
  id: z.number().int(),
  uri: z.string(),
  title: z.string(),
  members: z.number().int().optional(),
  is_member: z.boolean().optional(),
  is_owner: z.boolean().optional(),
});

export const materialShape = z.looseObject({
  name: z.string(),
  vendor: z.string().optional(),
  sku: z.string().optional(),
  amount: z.string().optional(),
});

export const versionShape = z.looseObject({
  version_id: z.number().int(),
  title: z.string().optional(),
  created_on: z.number().int().optional(),
  doi: z.string().optional(),
  protocol: z.string(),
});

/** Records as the open objects the shapes describe (a record keeps every field the repository sent). */
export function openRecords<T extends object>(items: T[]): Array<T & Record<string, unknown>> {
  return items as Array<T & Record<string, unknown>>;
}
