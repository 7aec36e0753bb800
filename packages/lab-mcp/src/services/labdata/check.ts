// What `labdata-mcp check` tries after the network: who the credential signs in as (users/me, as
// labdata_get_current_user asks) and one sample read (the first project), with the fixes a user can
// apply in this server's settings.

import type { CheckStep } from "../../core/check/report.js";
import { passed, stepFromError } from "../../core/check/report.js";
import type { ServiceCheck } from "../../core/check/run-check.js";
import type { SessionCall } from "../../core/credentials/call-scope.js";
import type { RequestScope } from "../../core/http/remote-client.js";
import type { LabdataApi } from "./client.js";
import type { LABDATA_SETTINGS } from "./settings.js";

const FIXES = {
  401:
    "the platform refused the credential: check LABDATA_API_KEY (a key from your profile's Settings > API Key), " +
    "or LABDATA_CLIENT_ID/LABDATA_CLIENT_SECRET, or that LABDATA_BASE_URL is the tenant the key belongs to",
  403: "the credential is valid but may not read this: ask your tenant's admin for access",
  404: "the address answered 404: check LABDATA_BASE_URL is your tenant's address (e.g. https://acme.benchling.com)",
};

export const labdataCheck: ServiceCheck<LabdataApi, typeof LABDATA_SETTINGS.shape> = {
  address: (values) => ({ url: values.LABDATA_BASE_URL, apiRoot: "api/v2" }),
  async steps(api, requestScope: RequestScope): Promise<CheckStep[]> {
    const scope: SessionCall = {
      ...requestScope,
      clientSession: { caller: "check", isolated: false },
      // The check never opens a page to ask: a missing credential is a failure with its fix.
      askForSecret: async () => undefined,
    };
    let who: CheckStep;
    try {
      const { user, credential } = await api.me(scope);
      const name = user.name || user.handle || user.id;
      who = passed(
        "credential",
        `${credential.description} signs in as ${name}${user.email ? ` <${user.email}>` : ""}`,
      );
    } catch (error) {
      return [stepFromError("credential", error, FIXES)];
    }
    try {
      const { items } = await api.listProjects(0, 1, scope);
      const first = items[0];
      const detail = first
        ? `read the first project: ${first.name || first.id}`
        : "read the projects: none visible to you";
      return [who, passed("sample read", detail)];
    } catch (error) {
      return [who, stepFromError("sample read", error, FIXES)];
    }
  },
};
