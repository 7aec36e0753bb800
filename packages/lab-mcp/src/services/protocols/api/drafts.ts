// The repository's draft writes (fact sheet §4.1, §4.2, §5.3), all as the signed-in user:
//   POST /api/v3/protocols/<new guid> (form type_id=1)  creates a blank private draft, under `protocol`;
//   PUT  /api/v4/protocols/{id}  {title, description, ...}  sets its fields (rich text as Draft.js);
//   POST /api/v4/protocols/{id}/steps  {steps: [...]}      adds and changes steps, by guid;
//   DELETE /api/v4/protocols/{id}/steps  {steps: [guid]}   removes steps.
// Nothing here publishes: publishing stays a human act in the repository's web interface.
import { setImmediate as setImmediatePromise } from "node:timers/promises";
import { InvalidResponseError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import { draftJsOf } from "../authoring/rich-text-out.js";
import { newGuid, type WireStep } from "../authoring/step-list.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { stepSchema } from "../records/protocols.js";
import { orderSteps } from "../records/step-order.js";
import { inline, integer, isRecord } from "../records/values.js";
import { stepsListOf } from "./protocols.js";

/** The fields of a draft, as the agent writes them (markdown); undefined ones are left as they are. */
export interface DraftText {
  title?: string;
  description?: string;
  guidelines?: string;
  before_start?: string;
  warning?: string;
  materials_text?: string;
}

const RICH_FIELDS = ["description", "guidelines", "before_start", "warning", "materials_text"] as const;

/** POST /api/v3/protocols/<guid>: a new, blank, private draft; its id. */
export async function createBlankDraft(client: ProtocolsClient, ctx: ProtocolsCall): Promise<number> {
  const guid = newGuid().toLowerCase();
  const body = await client.send(
    { method: "POST", path: apiPath`api/v3/protocols/${guid}`, body: new URLSearchParams({ type_id: "1" }) },
    ctx,
  );
  const record = [body.protocol, body.payload].find(isRecord);
  const id = integer(1).parse(record?.id);
  if (id === undefined)
    throw new InvalidResponseError("The repository created a draft without saying its id");
  return id;
}

/** PUT /api/v4/protocols/{id}: the fields given, rich text as Draft.js. */
export async function updateDraftFields(
  client: ProtocolsClient,
  ref: string,
  text: DraftText,
  ctx: ProtocolsCall,
): Promise<void> {
  const body: Record<string, string> = {};
  if (text.title !== undefined) body.title = text.title;
  for (const field of RICH_FIELDS) {
    const value = text[field];
    if (value !== undefined) body[field] = draftJsOf(value);
  }
  if (Object.keys(body).length === 0) return;
  await client.send({ method: "PUT", path: apiPath`api/v4/protocols/${ref}`, body }, ctx, {
    asksForOneProtocol: true,
  });
}

/**
 * The steps of a protocol in list order, as they would be sent back: text in the repository's own form
 * (its default, Draft.js), so that a step passed through unchanged loses nothing.
 */
export async function wireSteps(
  client: ProtocolsClient,
  ref: string,
  ctx: ProtocolsCall,
): Promise<WireStep[]> {
  const body = await client.send({ path: apiPath`api/v4/protocols/${ref}/steps` }, ctx, {
    asksForOneProtocol: true,
  });
  return stepsOfAnswer(body);
}

/** The steps of a steps answer (`payload` observed, `steps` documented), in list order. */
export function stepsOfAnswer(body: Record<string, unknown>): WireStep[] {
  const records = stepsListOf(body).filter(isRecord);
  const read = records.map((record) => stepSchema.parse(record));
  const raw = new Map(read.map((step, i) => [step, records[i]]));
  return orderSteps(read).flatMap((step) => {
    const record = raw.get(step);
    if (!step.guid || !record) return [];
    const text = record.step;
    return [
      {
        guid: step.guid,
        previous_guid: step.previous_guid ?? null,
        step: typeof text === "string" ? text : isRecord(text) ? JSON.stringify(text) : "",
        section: inline.parse(record.section) ?? null,
      },
    ];
  });
}

/** POST /api/v4/protocols/{id}/steps. */
export async function sendSteps(
  client: ProtocolsClient,
  ref: string,
  steps: WireStep[],
  ctx: ProtocolsCall,
): Promise<void> {
  if (steps.length === 0) return;
  await client.send(
    { method: "POST", path: apiPath`api/v4/protocols/${ref}/steps`, body: { steps: steps.map(wireForm) } },
    ctx,
    { asksForOneProtocol: true },
  );
}

/** DELETE /api/v4/protocols/{id}/steps; the steps the repository then has, in list order. */
export async function removeSteps(
  client: ProtocolsClient,
  ref: string,
  guids: string[],
  ctx: ProtocolsCall,
): Promise<WireStep[] | undefined> {
  if (guids.length === 0) return undefined;
  const body = await client.send(
    { method: "DELETE", path: apiPath`api/v4/protocols/${ref}/steps`, body: { steps: guids } },
    ctx,
    { asksForOneProtocol: true },
  );
  try {
    return stepsOfAnswer(body);
  } catch {
    return undefined;
  }
}

function wireForm(step: WireStep) {
  return {
    guid: step.guid,
    previous_guid: step.previous_guid,
    step: step.step,
    // "" for a step outside any section: left out, the repository would keep the step's old section.
    section: step.section ?? "",
  };
}

/** A step as the agent writes it: markdown text, and the section it is in. */
export function stepToSend(text: string, section: string | null): Omit<WireStep, "guid" | "previous_guid"> {
  return { step: draftJsOf(text), section };
}

/**
 * Every step as it is sent, converted one at a time with a turn of the event loop between them: a request
 * of hundreds of long steps leaves the process answering others (health checks, other people) meanwhile.
 */
export async function stepsToSend(
  steps: ReadonlyArray<{ text: string; section: string | null }>,
): Promise<Array<Omit<WireStep, "guid" | "previous_guid">>> {
  const sent: Array<Omit<WireStep, "guid" | "previous_guid">> = [];
  for (const { text, section } of steps) {
    sent.push(stepToSend(text, section));
    await setImmediatePromise();
  }
  return sent;
}
