// The platform's DNA bases search: a POST whose body carries the page size and cursor, paged to
// offsets the way the GET lists are (a cursor cache per query and credential).

import { z } from "zod";
import type { SessionCall } from "../../../core/credentials/call-scope.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataApi } from "../client.js";
import { type DnaSequence, dnaSequenceSchema, list, text } from "../records/platform.js";

const pageSchema = z.looseObject({ dnaSequences: list(dnaSequenceSchema), nextToken: text });

export interface BasesQuery {
  bases: string;
  registryId?: string;
}

export async function searchBases(
  api: LabdataApi,
  query: BasesQuery,
  offset: number,
  limit: number,
  ctx: SessionCall,
): Promise<{ items: DnaSequence[]; total: number }> {
  const credential = await api.credential(ctx);
  const queryKey = JSON.stringify([api.baseUrl, credential.id, "search-bases", query]);
  let reported: number | undefined;
  let more = false;
  const { items } = await api.pager.page<DnaSequence>(queryKey, offset, limit, async (cursor, pageSize) => {
    const response = await api.send(
      {
        method: "POST",
        path: apiPath`api/v2/dna-sequences:search-bases`,
        body: { ...query, sort: "name:asc", pageSize, ...(cursor ? { nextToken: cursor } : {}) },
        schema: pageSchema,
        // A search changes nothing: safe to repeat after a dropped connection.
        idempotent: true,
      },
      ctx,
    );
    const found = response.body.dnaSequences ?? [];
    const header = Number(response.headers.get("result-count"));
    reported =
      Number.isSafeInteger(header) && header >= 0 && response.headers.has("result-count")
        ? header
        : undefined;
    more = Boolean(response.body.nextToken) && found.length > 0;
    return {
      items: found,
      nextCursor: more ? (response.body.nextToken ?? undefined) : undefined,
      total: reported ?? 0,
    };
  });
  const seen = offset + items.length;
  return { items, total: reported === undefined ? seen + (more ? 1 : 0) : Math.max(reported, seen) };
}
