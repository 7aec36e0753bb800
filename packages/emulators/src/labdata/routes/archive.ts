// POST /{dna-sequences,aa-sequences,dna-oligos,rna-oligos,custom-entities}:archive and :unarchive.
// All or nothing: an unknown id is a 404 and an entity the caller may not write a 403, before
// anything changes. Archiving sets the reason; unarchiving clears it.
import { z } from "zod";
import { readJsonBody } from "../../common/json-body.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound } from "../api/errors.js";
import { allows, roleOnFolder } from "../auth/permissions.js";
import type { EntityKind } from "../registry/model.js";
import { registryOf } from "../registry/store.js";
import { ARCHIVE_REASONS } from "../state/model.js";
import type { RouteContext } from "./context.js";

type ArchivableKind = EntityKind | "dna_sequence";

/** The id list's key in the bodies and answers of each kind. */
const IDS_KEY: Record<ArchivableKind, string> = {
  dna_sequence: "dnaSequenceIds",
  aa_sequence: "aaSequenceIds",
  dna_oligo: "dnaOligoIds",
  rna_oligo: "rnaOligoIds",
  custom_entity: "customEntityIds",
};

interface Archivable {
  id: string;
  folderId: string;
  archiveReason: string | null;
  modifiedAt: number;
}

function recordOf(ctx: RouteContext, kind: ArchivableKind, id: string): Archivable | undefined {
  if (kind === "dna_sequence") return ctx.tenant.sequences.get(id);
  const entity = registryOf(ctx.tenant).entities.get(id);
  return entity?.kind === kind ? entity : undefined;
}

export function changeArchive(kind: ArchivableKind, archive: boolean) {
  const key = IDS_KEY[kind];
  const schema = z
    .object({
      [key]: z.array(z.string().min(1)).min(1).max(1000),
      ...(archive ? { reason: z.enum(ARCHIVE_REASONS) } : {}),
    })
    .strict();
  return async (ctx: RouteContext): Promise<HttpResponse> => {
    const read = await readJsonBody(ctx.req, schema);
    if (!read.ok) throw badRequest(read.message);
    const body = read.value as Record<string, unknown>;
    const ids = body[key] as string[];
    const reason = archive ? (body.reason as string) : null;
    const records = ids.map((id) => {
      const record = recordOf(ctx, kind, id);
      if (!record) throw notFound(`No ${kind.replace("_", " ")} ${id}`);
      const folder = ctx.tenant.folders.get(record.folderId);
      if (!folder || !allows(roleOnFolder(ctx.tenant, ctx.principal.actor, folder), "write")) {
        throw forbidden(`You cannot change ${id}`);
      }
      return record;
    });
    const now = ctx.clock.now();
    for (const record of records) {
      record.archiveReason = reason;
      record.modifiedAt = now;
      ctx.tenant.sequenceJson.delete(record.id);
    }
    ctx.resourceId = ids.join(",");
    return jsonResponse(200, { [key]: ids, batchIds: [] });
  };
}
