// What a started transport hands back: where it listens (HTTP) and how to stop it.

export interface RunningTransport {
  /** For HTTP: the MCP endpoint URL. */
  url?: string;
  close(): Promise<void>;
}
