// What `protocols-mcp check` tries after the network: who the credential is (the repository's profile,
// as protocols_get_profile asks) and one sample read (a search of public protocols), with the fixes a
// user can apply in this server's settings.

import type { CheckStep } from "../../core/check/report.js";
import { passed, stepFromError } from "../../core/check/report.js";
import type { ServiceCheck } from "../../core/check/run-check.js";
import type { CallScope } from "../../core/credentials/call-scope.js";
import type { RequestScope } from "../../core/http/remote-client.js";
import { listPage } from "./api/protocol-lists.js";
import { fetchProfile } from "./api/protocols.js";
import type { ProtocolsCall } from "./call.js";
import type { ProtocolsClient } from "./client.js";
import type { PROTOCOLS_SETTINGS } from "./settings.js";

const FIXES = {
  401:
    "the repository refused the credential: check PROTOCOLS_ACCESS_TOKEN (your application's client access token, " +
    "on protocols.io under Developer > Your applications), or sign in again with 'protocols-mcp login'",
  403: "the credential is valid but may not read this",
  404: "the address answered 404: check PROTOCOLS_BASE_URL is the repository's address (e.g. https://www.protocols.io)",
};

export const protocolsCheck: ServiceCheck<ProtocolsClient, typeof PROTOCOLS_SETTINGS.shape> = {
  address: (values) => ({ url: values.PROTOCOLS_BASE_URL, apiRoot: "api/v3" }),
  async steps(client, requestScope: RequestScope): Promise<CheckStep[]> {
    const call: CallScope = { ...requestScope, clientSession: { caller: "check", isolated: false } };
    let who: CheckStep;
    let scope: ProtocolsCall;
    try {
      scope = { ...call, credential: await client.credentials.required(call) };
      const { profile, credential } = await fetchProfile(client, scope);
      const name = profile.name || profile.username || "an unnamed user";
      who = passed(
        "credential",
        `${credential.description} signs in as ${name}${profile.username ? ` (@${profile.username})` : ""}`,
      );
    } catch (error) {
      return [stepFromError("credential", error, FIXES)];
    }
    try {
      const page = await listPage(
        client,
        { filter: "public", key: "protocol", orderField: "relevance", orderDir: "desc" },
        1,
        0,
        scope,
      );
      const first = page.items[0];
      const detail = first
        ? `searched public protocols: read "${first.title || first.id}"`
        : "searched public protocols: none found";
      return [who, passed("sample read", detail)];
    } catch (error) {
      return [who, stepFromError("sample read", error, FIXES)];
    }
  },
};
