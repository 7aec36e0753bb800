// One protocol and its steps (GET /api/v4/protocols/{ref} and .../steps, as markdown), and the signed-in
// user's profile (GET /api/v3/session/profile): the records the reading tools and resources show.

import { InvalidResponseError } from "../../../core/errors.js";
import { type ApiPath, apiPath } from "../../../core/http/api-path.js";
import type { ProtocolsCredential } from "../auth/credential.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import {
  type Profile,
  type Protocol,
  profileSchema,
  protocolSchema,
  type Step,
  stepSchema,
} from "../records/protocols.js";
import { orderSteps } from "../records/step-order.js";
import { isRecord, type Json, list } from "../records/values.js";
import type { RemoteWarning } from "./answers.js";

/**
 * The v4 path of a protocol reference as protocolRef gives it: "<id, uri or DOI name>" or, for an exact
 * version, "<...>/v2" or "<...>/latest" (fact sheet §4.1), each part one path segment.
 */
export function protocolPath(ref: string, below?: "steps"): ApiPath {
  const [base = ref, version] = ref.split("/");
  if (version === undefined) {
    return below ? apiPath`api/v4/protocols/${base}/${below}` : apiPath`api/v4/protocols/${base}`;
  }
  return below
    ? apiPath`api/v4/protocols/${base}/${version}/${below}`
    : apiPath`api/v4/protocols/${base}/${version}`;
}

/**
 * A protocol by id or uri: the record under `payload` (v4) or `protocol` (v3), its steps in order; when
 * it came without them (`steps` null or absent) and `withSteps`, from the steps endpoint.
 */
export async function fetchProtocol(
  client: ProtocolsClient,
  idOrUri: string,
  ctx: ProtocolsCall,
  { withSteps = true } = {},
): Promise<Protocol> {
  const body = await client.get(protocolPath(idOrUri), ctx, { content_format: "markdown" }, true);
  const raw = [body.payload, body.protocol].find(isRecord);
  const protocol = raw ? protocolSchema.safeParse(raw).data : undefined;
  if (!protocol) throw new InvalidResponseError("The repository answered without a protocol record");
  if (protocol.steps) protocol.steps = orderSteps(protocol.steps);
  else if (withSteps) {
    protocol.steps = await fetchSteps(client, idOrUri, ctx);
    protocol.number_of_steps = protocol.steps.length;
  }
  return protocol;
}

/** A protocol's steps, in order. */
export async function fetchSteps(
  client: ProtocolsClient,
  idOrUri: string,
  ctx: ProtocolsCall,
): Promise<Step[]> {
  const body = await client.get(protocolPath(idOrUri, "steps"), ctx, { content_format: "markdown" }, true);
  return orderSteps(list(stepSchema).parse(stepsListOf(body)));
}

/** The list of a steps answer: under `payload` (observed), `steps` (documented) or `payload.steps`. */
export function stepsListOf(body: Json): unknown[] {
  const steps = [body.payload, body.steps, isRecord(body.payload) ? body.payload.steps : undefined].find(
    Array.isArray,
  );
  if (!steps) throw new InvalidResponseError("The repository answered without a list of steps");
  return steps;
}

/** The signed-in user, the credential that signs in, and the repository's last warning for it. */
export async function fetchProfile(
  client: ProtocolsClient,
  ctx: ProtocolsCall,
): Promise<{ profile: Profile; credential: ProtocolsCredential; warning?: RemoteWarning }> {
  const { credential } = ctx;
  const body = await client.get(apiPath`api/v3/session/profile`, ctx);
  const user = body.user ?? body.payload;
  if (!isRecord(user)) throw new InvalidResponseError("The repository answered without a user");
  return { profile: profileSchema.parse(user), credential, warning: client.warningFor(credential.id) };
}
