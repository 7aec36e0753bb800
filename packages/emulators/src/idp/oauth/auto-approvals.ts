// The test hook that stands in for a person at the sign-in page: while set, /authorize approves at once
// as the chosen person and redirects straight back with a code, so an MCP client's whole sign-in runs
// without a browser. Set for one client, or for every client.

export class AutoApprovals {
  #everyClient: string | undefined;
  readonly #byClient = new Map<string, string>();

  /** Approves as `subject` from now on (for `clientId` only when given); null stops approving. */
  set(subject: string | null, clientId?: string): void {
    if (clientId === undefined) this.#everyClient = subject ?? undefined;
    else if (subject === null) this.#byClient.delete(clientId);
    else this.#byClient.set(clientId, subject);
  }

  /** The subject to approve as for this client, if any. */
  subjectFor(clientId: string): string | undefined {
    return this.#byClient.get(clientId) ?? this.#everyClient;
  }
}
