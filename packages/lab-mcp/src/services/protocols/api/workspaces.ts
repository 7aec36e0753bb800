// The repository's workspaces ("groups", fact sheet §8): GET /api/v3/workspaces (filter=my_groups for
// the user's own), read leniently from the recorded group object, and the pages that cover an offset.

import { apiPath } from "../../../core/http/api-path.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { listPageOf } from "../records/list-page.js";
import { isRecord } from "../records/values.js";
import { type Workspace, workspaceSchema } from "../records/workspace.js";
import { firstPageId, pagesFor } from "./protocol-lists.js";

const workspacePage = listPageOf(workspaceSchema);

/** Workspaces [offset, offset + limit): the user's own (`mine`) or every one matching `key`. */
export async function listWorkspaces(
  client: ProtocolsClient,
  { mine, key }: { mine: boolean; key?: string },
  offset: number,
  limit: number,
  ctx: ProtocolsCall,
): Promise<{ items: Workspace[]; total: number }> {
  const plan = pagesFor(offset, limit);
  const first = await firstPageId(client, ctx);
  const items: Workspace[] = [];
  let total: number | undefined;
  for (const place of plan.places) {
    const body = await client.send(
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
    const page = workspacePage.parse(body);
    items.push(...page.items);
    total ??= page.total;
    // A short page ends the list, counted as sent (an item that did not read still took its place).
    const sent = Array.isArray(body.items) ? body.items.filter(isRecord).length : 0;
    if (sent < plan.pageSize) break;
  }
  const start = offset - (plan.places[0] ?? 0) * plan.pageSize;
  const shown = items.slice(start, start + limit);
  return { items: shown, total: total ?? offset + shown.length };
}
