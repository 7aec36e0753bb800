// What a request of the lab data platform is made with: the call's scope (its signal, waits, logs, the
// client session and so the person) and the credential the tool-call boundary decided for it.
import type { CallScope } from "../../core/credentials/call-scope.js";
import type { LabdataCredential } from "./auth/credential.js";

export type LabdataCall = CallScope & { readonly credential: LabdataCredential };
