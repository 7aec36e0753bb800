// The repository's workspaces ("groups", fact sheet §8): GET /api/v3/workspaces (filter=my_groups for
// the user's own), read leniently from the recorded group object, and the pages that cover an offset.
import type { CallScope } from "../../../core/credentials/call-scope.js";
import { apiPath } from "../../../core/http/api-path.js";
import { type ProtocolsApi, pagesFor } from "../client.js";
import { flag, integerOf, isRecord, type Json, recordsOf, stringOf } from "../records/lenient.js";
import { omitUndefined } from "../records/protocols.js";
import { inlineText, richText } from "../records/rich-text.js";
import { readListPage } from "./list-page.js";

export interface Workspace {
  id: number;
  uri: string;
  title: string;
  description?: string;
  members?: number;
  protocols?: number;
  /** Whether the signed-in user is a member, and its owner. */
  is_member?: boolean;
  is_owner?: boolean;
}

export function readWorkspace(value: Json): Workspace | undefined {
  const id = integerOf(value.id, 0);
  const uri = stringOf(value.uri);
  if (id === undefined || uri === undefined) return undefined;
  const stats = isRecord(value.stats) ? value.stats : {};
  const status = isRecord(value.user_status) ? value.user_status : {};
  return omitUndefined({
    id,
    uri,
    title: inlineText(value.title) ?? uri,
    description: richText(value.description),
    members: integerOf(stats.total_members, 0),
    protocols: integerOf(stats.total_protocols, 0),
    is_member: flag(status.is_member ?? value.is_member),
    is_owner: flag(status.is_owner),
  });
}

/** Workspaces [offset, offset + limit): the user's own (`mine`) or every one matching `key`. */
export async function listWorkspaces(
  api: ProtocolsApi,
  { mine, key }: { mine: boolean; key?: string },
  offset: number,
  limit: number,
  ctx: CallScope,
): Promise<{ items: Workspace[]; total: number }> {
  const plan = pagesFor(offset, limit);
  const first = await api.firstPageId(ctx);
  const items: Workspace[] = [];
  let total: number | undefined;
  for (const place of plan.places) {
    const body = await api.send(
      {
        path: apiPath`api/v3/workspaces`,
        query: {
          filter: mine ? "my_groups" : undefined,
          key,
          page_size: plan.pageSize,
          page_id: place + first,
        },
      },
      ctx,
    );
    const page = recordsOf(body.items).map(readWorkspace);
    items.push(...page.filter((w): w is Workspace => w !== undefined));
    total ??= readListPage(body).total;
    if (page.length < plan.pageSize) break;
  }
  const start = offset - (plan.places[0] ?? 0) * plan.pageSize;
  const shown = items.slice(start, start + limit);
  return { items: shown, total: total ?? offset + shown.length };
}
