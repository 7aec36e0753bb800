// The people who can sign in at the identity provider. The demo people are the lab data demo's users
// (same names and emails as packages/emulators/src/labdata/demo/tenants.ts), so one person exists on both
// sides: their ID token's email is their lab data account, and their subject is stable across runs.
import { createHash } from "node:crypto";

export interface Person {
  /** Stable: derived from the email, the same in every run. */
  subject: string;
  name: string;
  email: string;
}

/** The subject the provider gives an email: what ID tokens and access tokens carry as `sub`. */
export function subjectOf(email: string): string {
  return createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 24);
}

function person(name: string, email: string): Person {
  return { subject: subjectOf(email), name, email };
}

/** Mira (the lab data demo's main scientist) first, then her colleagues. */
export const DEMO_PEOPLE: readonly Person[] = [
  person("Mira Patel", "mira.patel@acme.example"),
  person("Tom Becker", "tom.becker@acme.example"),
  person("Dana Whitfield", "dana.whitfield@acme.example"),
  person("Lin Zhou", "lin.zhou@acme.example"),
];

export class People {
  readonly #people: readonly Person[];

  constructor(people: readonly Person[]) {
    this.#people = people;
  }

  all(): readonly Person[] {
    return this.#people;
  }

  /** The person with this subject, or this email (case-insensitive). */
  find(subjectOrEmail: string): Person | undefined {
    const wanted = subjectOrEmail.toLowerCase();
    return this.#people.find((p) => p.subject === subjectOrEmail || p.email.toLowerCase() === wanted);
  }
}
