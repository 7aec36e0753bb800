// The document's name filters for entities: `name` and `nameIncludes` match the name, an alias or
// the registry id (nameIncludes as a case-insensitive substring); the archive filter as for any list.
import { type ListQuery, matchesQuery } from "../api/listing.js";

export interface NamedEntity {
  id: string;
  name: string;
  aliases: string[];
  entityRegistryId: string | null;
  modifiedAt: number;
  archiveReason: string | null;
}

export function entityMatches(
  item: NamedEntity,
  query: ListQuery,
  needle = query.nameIncludes?.toLowerCase(),
): boolean {
  if (!matchesQuery(item, { ...query, name: undefined, nameIncludes: undefined })) return false;
  const names = [item.name, ...item.aliases, ...(item.entityRegistryId ? [item.entityRegistryId] : [])];
  if (query.name !== undefined && !names.includes(query.name)) return false;
  return needle === undefined || names.some((name) => name.toLowerCase().includes(needle));
}
