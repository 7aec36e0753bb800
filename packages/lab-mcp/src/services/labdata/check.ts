// What `labdata-mcp check` tries after the network: who the credential signs in as (users/me, as
// labdata_get_current_user asks) and one sample read (the first project), with the fixes a user can
// apply in this server's settings.

import type { CheckStep } from "../../core/check/report.js";
import { passed, stepFromError } from "../../core/check/report.js";
import type { ServiceCheck } from "../../core/check/run-check.js";
import type { SessionCall } from "../../core/credentials/call-scope.js";
import type { RequestScope } from "../../core/http/remote-client.js";
import type { LabdataCall } from "./call.js";
import type { LabdataClient } from "./client.js";
import type { LABDATA_SETTINGS } from "./settings.js";
import { whereOf } from "./warehouse/address.js";

const FIXES = {
  401:
    "the platform refused the credential: check LABDATA_API_KEY (a key from your profile's Settings > API Key), " +
    "or LABDATA_CLIENT_ID/LABDATA_CLIENT_SECRET, or that LABDATA_BASE_URL is the tenant the key belongs to",
  403: "the credential is valid but may not read this: ask your tenant's admin for access",
  404: "the address answered 404: check LABDATA_BASE_URL is your tenant's address (e.g. https://acme.benchling.com)",
};

export const labdataCheck: ServiceCheck<LabdataClient, typeof LABDATA_SETTINGS.shape> = {
  address: (values) => ({ url: values.LABDATA_BASE_URL, apiRoot: "api/v2" }),
  async steps(client, requestScope: RequestScope): Promise<CheckStep[]> {
    const call: SessionCall = {
      ...requestScope,
      clientSession: { caller: "check", isolated: false },
      // The check never opens a page to ask: a missing credential is a failure with its fix.
      askForSecret: async () => undefined,
    };
    let who: CheckStep;
    let scope: LabdataCall;
    try {
      const credential = await client.credentials.required(call);
      scope = { ...call, credential };
      const user = await client.me(scope);
      const name = user.name || user.handle || user.id;
      who = passed(
        "credential",
        `${credential.description} signs in as ${name}${user.email ? ` <${user.email}>` : ""}`,
      );
    } catch (error) {
      return [stepFromError("credential", error, FIXES)];
    }
    let sample: CheckStep;
    try {
      const { items } = await client.listProjects(0, 1, scope);
      const first = items[0];
      const detail = first
        ? `read the first project: ${first.name || first.id}`
        : "read the projects: none visible to you";
      sample = passed("sample read", detail);
    } catch (error) {
      return [who, stepFromError("sample read", error, FIXES)];
    }
    return [who, sample, await warehouseStep(client, scope)];
  },
};

const WAREHOUSE_FIXES = {
  401: "the platform refused the credential when minting warehouse credentials: check the credential above",
  403:
    "the platform would not mint warehouse credentials for this credential: the warehouse is a tenant feature; ask your " +
    "tenant's admin to enable it (and warehouse access for you)",
  404:
    "the platform has no warehouse credentials route for this tenant: the warehouse is a tenant feature; ask your tenant's " +
    "admin, or leave the warehouse tools unused",
};

/**
 * The warehouse: a login minted with the credential, a connection over verified TLS, SELECT 1. Only a
 * warehouse named in LABDATA_WAREHOUSE_URL can fail the check; one guessed from the tenant's address
 * (or none) is a note, since the warehouse is a feature not every tenant has.
 */
async function warehouseStep(client: LabdataClient, scope: LabdataCall): Promise<CheckStep> {
  const address = client.warehouse.address;
  if (!address) {
    return {
      ...passed("warehouse", "no address: set LABDATA_WAREHOUSE_URL to use the warehouse tools"),
      note: true,
    };
  }
  const where = whereOf(address);
  try {
    await client.warehouse.ping(scope);
    return passed("warehouse", `minted a login, connected to ${where} over verified TLS, SELECT 1 answered`);
  } catch (error) {
    const step = stepFromError("warehouse", error, WAREHOUSE_FIXES);
    if (address.source === "setting") return step;
    return {
      ...step,
      ok: true,
      note: true,
      detail: `${where} (guessed from the tenant's address): ${step.detail}`,
      fix: "set LABDATA_WAREHOUSE_URL to your tenant's warehouse, or leave the warehouse tools unused",
    };
  }
}
