// The credential ladder both services climb, in one order: the operator's configured credential
// (everyone acts as it), the signed-in person's own (team mode, kept in the shared state), the client
// session's own (HTTP, in memory for it alone), this computer's (stdio: in memory or remembered in the
// user's config folder), and last asking the user. Each service says what each rung holds; a rung
// answers, or passes (undefined) to the next. Kept here so that a team-mode step is added in one place.
import type { ClientSession, Person } from "../caller.js";
import type { CallScope } from "./call-scope.js";

type Answer<T> = T | undefined | Promise<T | undefined>;

export interface CredentialLadder<T, Scope extends CallScope = CallScope> {
  /** The operator's credential: everyone acts as it. */
  configured?(scope: Scope): Answer<T>;
  /** The person behind the call (team mode): their own credential. */
  person?(person: Person, scope: Scope): Answer<T>;
  /** The client session's own (HTTP without a person), never used for another session. */
  session?(session: ClientSession, scope: Scope): Answer<T>;
  /** This computer's: the process's, in memory or remembered on disk. */
  computer?(scope: Scope): Answer<T>;
  /** Nothing known: ask the user, or say why not. Always answers; a ladder whose last rung always
   * answers (e.g. the operator's sign-in, or why there is none) needs none. */
  ask?(scope: Scope): T | Promise<T>;
}

/** The first rung's answer, climbing in the ladder's order. */
export async function climb<T, Scope extends CallScope>(
  ladder: CredentialLadder<T, Scope>,
  scope: Scope,
): Promise<T> {
  const configured = await ladder.configured?.(scope);
  if (configured !== undefined) return configured;
  const session = scope.clientSession;
  const person = session?.person;
  if (person) {
    const own = await ladder.person?.(person, scope);
    if (own !== undefined) return own;
  }
  if (session) {
    const own = await ladder.session?.(session, scope);
    if (own !== undefined) return own;
  }
  const computer = await ladder.computer?.(scope);
  if (computer !== undefined) return computer;
  if (!ladder.ask)
    throw new Error("The credential ladder ended without an answer (a rung must always answer).");
  return ladder.ask(scope);
}
