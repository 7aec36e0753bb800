// The draft writes of the API: POST /api/v3/protocols/<guid> creates a blank private draft of the caller
// (fact sheet §4.2: form `type_id`, answered under `protocol`), PUT /api/v4/protocols/{id} sets its title
// and rich-text fields (Draft.js strings or plain text). Only the owner writes, only while the protocol
// is unpublished; a protocol the caller may not see answers as one that does not exist. Nothing here
// publishes: that stays a human act in the web interface.
import { z } from "zod";
import { BodyTooLargeError, readBody } from "../../common/http.js";
import type { HttpResponse } from "../../common/response.js";
import type { Protocol } from "../model.js";
import { StoreError } from "../store.js";
import type { ApiRequest } from "./api-answer.js";
import { StatusCode } from "./api-errors.js";
import { protocolWire } from "./api-shapes.js";
import { storedText } from "./draft-input.js";
import { visibleProtocol } from "./read-protocol.js";

/** The largest body a write takes. */
export const MAX_WRITE_BYTES = 2 * 1024 * 1024;
const MAX_TITLE_CHARS = 300;
const MAX_TEXT_CHARS = 50_000;
const TYPE_IDS = new Set(["1", "3", "4"]);

/** The body as form fields or a JSON object; undefined when it is neither, or too large. */
export async function readWriteBody(request: ApiRequest): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readBody(request.req, MAX_WRITE_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return undefined;
    throw error;
  }
  if (text.trim() === "") return {};
  if (/json/i.test(request.req.headers["content-type"] ?? "") || text.trimStart().startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export function badBody(
  request: ApiRequest,
  message = "The body is not a JSON object or a form.",
): HttpResponse {
  return request.answer.error(400, StatusCode.BAD_PARAMETERS, message);
}

/**
 * The protocol the caller may change: visible to them (else 404, as for a read), theirs (else 403 with
 * the real service's "access denied" code 132) and not yet published (403).
 */
export function writableProtocol(request: ApiRequest, idOrUri: string | undefined): Protocol | HttpResponse {
  const protocol = visibleProtocol(request, idOrUri);
  if (!protocol) return request.answer.notFound("Protocol not found.");
  if (protocol.creatorId !== request.viewer.id) {
    return request.answer.error(403, StatusCode.ACCESS_DENIED, "Only the protocol's owner may change it.");
  }
  if (protocol.isPublic) {
    return request.answer.error(
      403,
      StatusCode.ACCESS_DENIED,
      "A published protocol changes only through a new version, in the web interface.",
    );
  }
  return protocol;
}

export async function createDraft(request: ApiRequest, guid: string): Promise<HttpResponse> {
  if (!/^[0-9a-f]{32}$/i.test(guid)) {
    return request.answer.error(400, StatusCode.BAD_PARAMETERS, "guid must be 32 hexadecimal digits.");
  }
  const body = await readWriteBody(request);
  if (!body) return badBody(request);
  const typeId = String(body.type_id ?? "1");
  if (!TYPE_IDS.has(typeId))
    return request.answer.error(400, StatusCode.BAD_PARAMETERS, "type_id must be 1, 3 or 4.");
  let protocol: Protocol;
  try {
    protocol = request.ctx.store.createDraft(request.viewer, guid);
  } catch (error) {
    if (error instanceof StoreError)
      return request.answer.error(400, StatusCode.BAD_PARAMETERS, error.message);
    throw error;
  }
  return request.answer.ok({ protocol: protocolWire(protocol, request.ctx.store, request.view) });
}

const text = (max: number, name: string) =>
  z
    .unknown()
    .transform((value) => storedText(value))
    .refine(
      (value) => value === undefined || value.length <= max,
      `${name} must be at most ${max} characters`,
    )
    .optional();

const updateSchema = z.object({
  title: z
    .string({ error: "title must be text" })
    .trim()
    .min(1, "title must not be empty")
    .max(MAX_TITLE_CHARS, `title must be at most ${MAX_TITLE_CHARS} characters`)
    .optional(),
  description: text(MAX_TEXT_CHARS, "description"),
  guidelines: text(MAX_TEXT_CHARS, "guidelines"),
  before_start: text(MAX_TEXT_CHARS, "before_start"),
  warning: text(MAX_TEXT_CHARS, "warning"),
  materials_text: text(MAX_TEXT_CHARS, "materials_text"),
});

export async function updateProtocol(request: ApiRequest, protocol: Protocol): Promise<HttpResponse> {
  const body = await readWriteBody(request);
  if (!body) return badBody(request);
  const parsed = updateSchema.safeParse(body);
  if (!parsed.success) {
    return request.answer.error(
      400,
      StatusCode.BAD_PARAMETERS,
      parsed.error.issues[0]?.message ?? "Bad fields.",
    );
  }
  const { title, description, guidelines, before_start, warning, materials_text } = parsed.data;
  request.ctx.store.updateDraft(protocol, {
    title,
    description,
    guidelines,
    beforeStart: before_start,
    warning,
    materialsText: materials_text,
  });
  return request.answer.ok({
    [request.view.dialect.protocolKey]: protocolWire(protocol, request.ctx.store, request.view),
  });
}
