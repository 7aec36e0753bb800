// The platform's DNA bases search: a POST whose body carries the page size and cursor, paged to
// offsets the way the GET lists are (a cursor cache per query and credential).

import { z } from "zod";
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import { type LabdataClient, resultCount } from "../client.js";
import { type DnaSequence, dnaSequenceSchema, list, text } from "../records/platform.js";
import { type Counted, countOf } from "./count.js";

const pageSchema = z.looseObject({ dnaSequences: list(dnaSequenceSchema), nextToken: text });

export interface BasesQuery {
  bases: string;
  registryId?: string;
}

export async function searchBases(
  client: LabdataClient,
  query: BasesQuery,
  offset: number,
  limit: number,
  ctx: LabdataCall,
): Promise<Counted<DnaSequence>> {
  const { credential } = ctx;
  const queryKey = JSON.stringify([client.baseUrl, credential.id, "search-bases", query]);
  let reported: number | undefined;
  const { items, end } = await client.pager.page<DnaSequence>(
    queryKey,
    offset,
    limit,
    async (cursor, pageSize) => {
      const response = await client.send(
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
      reported = resultCount(response.headers);
      const next = response.body.nextToken;
      return { items: found, nextCursor: next && found.length > 0 ? next : undefined, total: reported ?? 0 };
    },
  );
  return countOf(items, offset, reported, end);
}
