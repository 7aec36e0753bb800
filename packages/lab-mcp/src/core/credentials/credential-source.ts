// What the tool-call boundary needs of a service's credential source, and what a tool declares it
// needs of it. The boundary (core/server/call-credential.ts) climbs the source once per call, after the
// input is validated and before the handler runs; the handler finds the credential on its context and
// the service's client only sends requests with it.
import type { SessionCall } from "./call-scope.js";

/**
 * What a tool needs of the caller's credential: "required" (the default: the ladder is climbed and the
 * user asked when nothing is known), "optional" (the credential when one is known, else the tool works
 * without one), "none" (the tool makes no request with it, e.g. a sign-out).
 */
export type CredentialNeed = "required" | "optional" | "none";

/** A service's credential source, as the boundary uses it. */
export interface CredentialSource<C> {
  /** The caller's credential, climbing the ladder; the user may be asked. Throws a typed error when there is none. */
  required(call: SessionCall): Promise<C>;
  /** The caller's credential when one is known without asking; undefined otherwise. */
  optional(call: SessionCall): Promise<C | undefined>;
  /** The remote refused `credential` (401) during this call: forget what must not be used again. */
  refused(call: SessionCall, credential: C): Promise<void>;
}

/** A service whose calls are made with a credential of its source (the boundary finds it there). */
export interface Credentialed<C> {
  readonly credentials: CredentialSource<C>;
}

/** The credential type of a service's calls; never for a service without a source. */
export type CredentialOf<S> = S extends Credentialed<infer C> ? C : never;

/** What a handler's context holds of the credential, by what its tool declared. */
export type CallCredential<C, Need extends CredentialNeed> = [C] extends [never]
  ? unknown
  : Need extends "required"
    ? { readonly credential: C }
    : Need extends "optional"
      ? { readonly credential: C | undefined }
      : unknown;
