// The list endpoints' shared query: pageSize, nextToken, sort, name, nameIncludes, archiveReason;
// and paging by a keyset cursor (sort value, then id), so pages stay stable while records change.

import { ARCHIVE_REASONS } from "../state/model.js";
import { badRequest } from "./errors.js";
import type { Cursor, PageTokens } from "./page-tokens.js";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

type SortField = "name" | "modifiedAt";

// A bare field sorts the way a person expects it: names A to Z, newest changes first.
const SORTS: Record<string, { field: SortField; direction: 1 | -1 }> = {
  name: { field: "name", direction: 1 },
  "name:asc": { field: "name", direction: 1 },
  "name:desc": { field: "name", direction: -1 },
  modifiedAt: { field: "modifiedAt", direction: -1 },
  "modifiedAt:asc": { field: "modifiedAt", direction: 1 },
  "modifiedAt:desc": { field: "modifiedAt", direction: -1 },
};

const ANY = new Set(["ANY", "ANY_ARCHIVED_OR_NOT_ARCHIVED"]);
const KNOWN_REASONS = new Set<string>(ARCHIVE_REASONS);

export interface Listable {
  id: string;
  name: string;
  modifiedAt: number;
  archiveReason: string | null;
}

export interface ListQuery {
  pageSize: number;
  sort: { field: SortField; direction: 1 | -1 };
  name: string | undefined;
  nameIncludes: string | undefined;
  /** "NOT_ARCHIVED", "ANY", "ANY_ARCHIVED", or a set of reasons. */
  archive: "NOT_ARCHIVED" | "ANY" | "ANY_ARCHIVED" | Set<string>;
  nextToken: string | undefined;
  /** What a nextToken is bound to: everything but the page size and the token itself. */
  binding: string;
}

function nonEmpty(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (value.trim() === "") throw badRequest(`${name} must not be empty`);
  return value;
}

function parseArchive(raw: string | null): ListQuery["archive"] {
  if (raw === null || raw === "NOT_ARCHIVED") return "NOT_ARCHIVED";
  if (ANY.has(raw)) return "ANY";
  if (raw === "ANY_ARCHIVED") return "ANY_ARCHIVED";
  const reasons = raw.split(",").map((r) => r.trim());
  const unknown = reasons.find((r) => !KNOWN_REASONS.has(r));
  if (unknown !== undefined) {
    throw badRequest(
      `archiveReason must be NOT_ARCHIVED, ANY, ANY_ARCHIVED or reasons among: ${ARCHIVE_REASONS.join(", ")}`,
    );
  }
  return new Set(reasons);
}

/** The common list parameters of `params`; `scope` names the endpoint and caller the token is bound to. */
export function parseListQuery(params: URLSearchParams, scope: readonly unknown[]): ListQuery {
  const rawSize = params.get("pageSize");
  if (
    rawSize !== null &&
    (!/^\d{1,3}$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > MAX_PAGE_SIZE)
  ) {
    throw badRequest(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const sortText = params.get("sort") ?? "modifiedAt:desc";
  const sort = SORTS[sortText];
  if (!sort) throw badRequest(`sort must be one of ${Object.keys(SORTS).join(", ")}`);
  const name = nonEmpty(params, "name");
  const nameIncludes = nonEmpty(params, "nameIncludes");
  const archive = parseArchive(params.get("archiveReason"));
  const archiveKey = archive instanceof Set ? [...archive].sort() : archive;
  return {
    pageSize: rawSize === null ? DEFAULT_PAGE_SIZE : Number(rawSize),
    sort,
    name,
    nameIncludes,
    archive,
    nextToken: params.get("nextToken") ?? undefined,
    binding: JSON.stringify([...scope, sort, name, nameIncludes?.toLowerCase(), archiveKey]),
  };
}

function passesArchive(reason: string | null, archive: ListQuery["archive"]): boolean {
  if (archive === "ANY") return true;
  if (archive === "NOT_ARCHIVED") return reason === null;
  if (archive === "ANY_ARCHIVED") return reason !== null;
  return reason !== null && archive.has(reason);
}

/** Whether `item` passes the name and archive filters of `query`. */
export function matchesQuery(
  item: Listable,
  query: ListQuery,
  needle = query.nameIncludes?.toLowerCase(),
): boolean {
  if (!passesArchive(item.archiveReason, query.archive)) return false;
  if (query.name !== undefined && item.name !== query.name) return false;
  return needle === undefined || item.name.toLowerCase().includes(needle);
}

export interface Page<T> {
  items: T[];
  nextToken: string;
  total: number;
}

/** One page of `matches` (already filtered) in the query's order, after the query's cursor. */
export function paginate<T extends Listable>(matches: T[], query: ListQuery, tokens: PageTokens): Page<T> {
  const { field, direction } = query.sort;
  const keyOf = (item: T): Cursor => ({
    v: field === "name" ? item.name.toLowerCase() : item.modifiedAt,
    id: item.id,
  });
  const compare = (a: Cursor, b: Cursor): number => {
    if (a.v !== b.v) return (a.v < b.v ? -1 : 1) * direction;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const keyed = matches.map((item) => ({ item, key: keyOf(item) }));
  keyed.sort((a, b) => compare(a.key, b.key));
  let start = 0;
  if (query.nextToken !== undefined && query.nextToken !== "") {
    const cursor = tokens.read(query.nextToken, query.binding);
    if (typeof cursor.v !== (field === "name" ? "string" : "number"))
      throw badRequest("nextToken is not valid");
    const after = keyed.findIndex((k) => compare(k.key, cursor) > 0);
    start = after < 0 ? keyed.length : after;
  }
  const page = keyed.slice(start, start + query.pageSize);
  const last = page.at(-1);
  const more = start + query.pageSize < keyed.length;
  return {
    items: page.map((k) => k.item),
    nextToken: more && last ? tokens.issue(query.binding, last.key) : "",
    total: keyed.length,
  };
}
