// POST /dna-sequences:search-bases: the DNA sequences the caller may read that contain the bases, on
// either strand (and across the origin of a circular one), paged like the list.

import { z } from "zod";
import { readJsonBody } from "../../common/json-body.js";
import type { HttpResponse } from "../../common/response.js";
import { badRequest } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { sequenceJson } from "../api/shapes.js";
import { readableFolderIds } from "../auth/permissions.js";
import { reverseComplement } from "../sequences/dna.js";
import type { DnaSequence } from "../state/model.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

/** The document's minimum: shorter queries match nearly everything. */
export const MIN_SEARCH_BASES = 8;

const searchSchema = z
  .object({
    bases: z.string().regex(/^[ACGTUacgtu]+$/, "must contain only A, C, G, T or U"),
    archiveReason: z.enum(["NOT_ARCHIVED", "Other", "Archived"]).optional(),
    nextToken: z.string().optional(),
    pageSize: z.number().int().min(1).max(100).optional(),
    registryId: z.string().nullable().optional(),
    schemaId: z.string().optional(),
    sort: z.enum(["modifiedAt:asc", "modifiedAt:desc", "name:asc", "name:desc"]).optional(),
  })
  .strict();

export function containsBases(seq: DnaSequence, query: string): boolean {
  const bases = seq.isCircular ? seq.bases + seq.bases.slice(0, query.length - 1) : seq.bases;
  return bases.includes(query) || bases.includes(reverseComplement(query));
}

export async function searchDnaSequenceBases(ctx: RouteContext): Promise<HttpResponse> {
  const read = await readJsonBody(ctx.req, searchSchema);
  if (!read.ok) throw badRequest(read.message);
  const body = read.value;
  const query = body.bases.toUpperCase().replace(/U/g, "T");
  if (query.length < MIN_SEARCH_BASES) throw badRequest(`bases must be at least ${MIN_SEARCH_BASES} long`);
  const params = new URLSearchParams();
  if (body.pageSize !== undefined) params.set("pageSize", String(body.pageSize));
  if (body.sort) params.set("sort", body.sort);
  if (body.nextToken) params.set("nextToken", body.nextToken);
  if (body.archiveReason === "Archived") params.set("archiveReason", "ANY_ARCHIVED");
  else if (body.archiveReason) params.set("archiveReason", body.archiveReason);
  const list = parseListQuery(
    params,
    listScope(ctx, "dna-sequences:search-bases", [query, body.schemaId, body.registryId]),
  );
  const { tenant } = ctx;
  const readable = readableFolderIds(tenant, ctx.principal.actor);
  const matches: DnaSequence[] = [];
  for (const seq of tenant.sequences.values()) {
    if (!readable.has(seq.folderId)) continue;
    if (body.schemaId !== undefined && seq.schema?.id !== body.schemaId) continue;
    if (body.registryId === null && seq.entityRegistryId !== null) continue;
    if (typeof body.registryId === "string" && seq.entityRegistryId === null) continue;
    if (matchesQuery(seq, list, undefined) && containsBases(seq, query)) matches.push(seq);
  }
  const page = paginate(matches, list, ctx.pageTokens);
  return listResponse("dnaSequences", page, (seq) => sequenceJson(tenant, seq));
}
