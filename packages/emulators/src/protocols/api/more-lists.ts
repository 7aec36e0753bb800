// The lists beside search (fact sheet §8): a researcher's protocols (`user_all`, every kind, only for the
// token's own user; otherwise their public ones), workspaces (all, or `my_groups`), one workspace, and a
// workspace's PUBLIC protocols. Each is a page in the list envelope of the dialect.
import type { HttpResponse } from "../../common/response.js";
import type { Protocol, User, Workspace } from "../model.js";
import type { ApiRequest } from "./api-answer.js";
import { StatusCode } from "./api-errors.js";
import { protocolSummaryWire } from "./api-shapes.js";
import { listEnvelope } from "./list-envelope.js";
import { canSee } from "./visibility.js";

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

/** page_size 1..100 and page_id from the dialect's first page; an error answer for anything else. */
function pageOf(request: ApiRequest): { pageId: number; pageSize: number } | HttpResponse {
  const first = request.view.dialect.pageOrigin;
  const read = (name: string, min: number, max: number, fallback: number) => {
    const raw = request.url.searchParams.get(name);
    if (raw === null || raw === "") return fallback;
    return /^\d{1,9}$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined;
  };
  const pageSize = read("page_size", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  const pageId = read("page_id", first, Number.MAX_SAFE_INTEGER, first);
  if (pageSize === undefined) {
    return request.answer.error(
      400,
      StatusCode.BAD_PARAMETERS,
      `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`,
    );
  }
  if (pageId === undefined) {
    return request.answer.error(
      400,
      StatusCode.BAD_PARAMETERS,
      `page_id must be an integer of at least ${first}`,
    );
  }
  return { pageId, pageSize };
}

function page(request: ApiRequest, all: unknown[]): HttpResponse {
  const paging = pageOf(request);
  if ("status" in paging) return paging;
  const start = (paging.pageId - request.view.dialect.pageOrigin) * paging.pageSize;
  const items = all.slice(start, start + paging.pageSize);
  const envelope = listEnvelope(
    { items, ...paging, totalResults: all.length, url: request.url, origin: request.ctx.origin },
    request.view.dialect,
  );
  return request.answer.ok(envelope);
}

const newestFirst = (a: Protocol, b: Protocol) => b.createdOn - a.createdOn || b.id - a.id;

/** GET /api/v3/researchers/<username>/protocols[?filter=user_all]. */
export function researcherProtocols(request: ApiRequest, username: string): HttpResponse {
  const researcher = request.ctx.store.userByName(username);
  if (!researcher) return request.answer.notFound("Researcher not found.");
  const filter = request.url.searchParams.get("filter") ?? "user_public";
  const own = researcher.id === request.viewer.id;
  if (filter === "user_all" && !own) {
    return request.answer.error(
      403,
      StatusCode.ACCESS_DENIED,
      "filter user_all is only for your own protocols.",
    );
  }
  if (filter !== "user_all" && filter !== "user_public") {
    return request.answer.error(400, StatusCode.BAD_PARAMETERS, "filter must be user_public or user_all");
  }
  const protocols = request.ctx.store
    .protocols()
    .filter((p) => p.creatorId === researcher.id && (filter === "user_all" || p.isPublic))
    .sort(newestFirst);
  return page(
    request,
    protocols.map((p) => protocolSummaryWire(p, request.ctx.store, request.view)),
  );
}

/** A workspace as the recorded "group" object (§8), as `viewer` sees it. */
export function workspaceWire(workspace: Workspace, viewer: User) {
  const member = workspace.memberIds.includes(viewer.id);
  const owner = workspace.memberIds[0] === viewer.id;
  return {
    id: workspace.id,
    uri: workspace.uri,
    title: workspace.title,
    image: { source: null, placeholder: null },
    tech_support: { email: null, phone: null, hide_contact: 1, use_email: 0 },
    is_member: member ? 1 : 0,
    description: workspace.description,
    research_interests: null,
    website: null,
    location: null,
    affiliation: null,
    status: { is_visible: true, access_level: 0 },
    stats: {
      files: [],
      total_members: workspace.memberIds.length,
      total_followers: 0,
      total_protocols: workspace.protocolIds.length,
    },
    user_status: {
      is_member: member,
      is_confirmed: member,
      is_invited: false,
      is_owner: owner,
      is_admin: owner,
      is_following: member,
    },
  };
}

/** GET /api/v3/workspaces[?filter=my_groups][&key=...]. */
export function listWorkspaces(request: ApiRequest): HttpResponse {
  const filter = request.url.searchParams.get("filter");
  const key = (request.url.searchParams.get("key") ?? "").trim().toLowerCase();
  const workspaces = request.ctx.store
    .workspaces()
    .filter((w) => filter !== "my_groups" || w.memberIds.includes(request.viewer.id))
    .filter((w) => key === "" || w.title.toLowerCase().includes(key));
  return page(
    request,
    workspaces.map((w) => workspaceWire(w, request.viewer)),
  );
}

export function workspaceAnswer(request: ApiRequest, uri: string): HttpResponse {
  const workspace = request.ctx.store.findWorkspace(uri);
  if (!workspace) return request.answer.notFound("Workspace not found.");
  return request.answer.ok({ workspace: workspaceWire(workspace, request.viewer) });
}

/** GET /api/v3/workspaces/<uri>/protocols: its PUBLIC protocols only, newest first (§8). */
export function workspaceProtocols(request: ApiRequest, uri: string): HttpResponse {
  const workspace = request.ctx.store.findWorkspace(uri);
  if (!workspace) return request.answer.notFound("Workspace not found.");
  const protocols = workspace.protocolIds
    .map((id) => request.ctx.store.findProtocol(String(id)))
    .filter((p): p is Protocol => p?.isPublic === true && canSee(p, request.viewer))
    .sort(newestFirst);
  return page(
    request,
    protocols.map((p) => protocolSummaryWire(p, request.ctx.store, request.view)),
  );
}
