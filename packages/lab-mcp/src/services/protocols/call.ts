// What a request of the protocol repository is made with: the call's scope (its signal, waits, logs, the
// client session and so the person) and the credential the tool-call boundary decided for it.
import type { CallScope } from "../../core/credentials/call-scope.js";
import type { ProtocolsCredential } from "./auth/credential.js";

export type ProtocolsCall = CallScope & { readonly credential: ProtocolsCredential };
