// GET {base}/users/search: the one remote endpoint the reference tool example_search_users calls.
import { type HttpResponse, jsonResponse } from "../common/response.js";
import type { ExampleUser } from "./users.js";

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

// Digits only: "1e1", "2.0", "+3" and " 4" are rejected rather than coerced, as a strict API would.
function parseInteger(
  raw: string | null,
  name: string,
  min: number,
  max: number,
  fallback: number,
): Parsed<number> {
  if (raw === null) return { ok: true, value: fallback };
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    return { ok: false, message: `${name} must be an integer ${range}` };
  }
  return { ok: true, value: Number(raw) };
}

interface SearchQuery {
  q: string;
  limit: number;
  offset: number;
}

function parseSearchQuery(params: URLSearchParams): Parsed<SearchQuery> {
  const q = params.get("q")?.trim();
  if (!q) return { ok: false, message: "q is required and must not be empty" };
  const limit = parseInteger(params.get("limit"), "limit", 1, MAX_LIMIT, DEFAULT_LIMIT);
  if (!limit.ok) return limit;
  const offset = parseInteger(params.get("offset"), "offset", 0, Number.MAX_SAFE_INTEGER, 0);
  if (!offset.ok) return offset;
  return { ok: true, value: { q, limit: limit.value, offset: offset.value } };
}

// Code-point order, not locale order, so the page boundaries are identical on every machine.
function byNameThenId(a: ExampleUser, b: ExampleUser): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// A copy with no `team` key at all when the user has none (not `team: undefined`, not `null`).
function toWire(user: ExampleUser): ExampleUser {
  const { id, name, email, team } = user;
  return team === undefined ? { id, name, email } : { id, name, email, team };
}

export function searchUsers(users: readonly ExampleUser[], params: URLSearchParams): HttpResponse {
  const parsed = parseSearchQuery(params);
  if (!parsed.ok) return jsonResponse(400, { error: "invalid_request", message: parsed.message });
  const { q, limit, offset } = parsed.value;
  const needle = q.toLowerCase();
  const matches = users
    .filter((u) => [u.name, u.email, u.team ?? ""].some((field) => field.toLowerCase().includes(needle)))
    .sort(byNameThenId);
  return jsonResponse(200, {
    users: matches.slice(offset, offset + limit).map(toWire),
    total: matches.length,
  });
}
