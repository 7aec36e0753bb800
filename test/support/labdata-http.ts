// The lab data platform emulator over plain HTTP, for its own tests (global fetch trusts the run's CA
// through NODE_EXTRA_CA_CERTS): credentials in their wire forms, and a fetch that returns what a
// client sees: status, headers and the parsed body.
import { expect } from "vitest";

/** `Authorization` for an API key: Basic with the key as username and an empty password. */
export const basic = (username: string, password = ""): string =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
export const bearer = (token: string): string => `Bearer ${token}`;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the emulator sent
  body: any;
}

export interface CallOptions {
  method?: string;
  authorization?: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string;
}

export async function fetchReply(url: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  if (options.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Asserts the platform's error body: exactly {error: {message, type, userMessage}}, all strings. */
export function expectError(reply: Reply, status: number, type: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(Object.keys(reply.body)).toEqual(["error"]);
  expect(Object.keys(reply.body.error).sort()).toEqual(["message", "type", "userMessage"]);
  expect(reply.body.error.type).toBe(type);
  expect(typeof reply.body.error.message).toBe("string");
  expect(reply.body.error.message.length).toBeGreaterThan(0);
  expect(typeof reply.body.error.userMessage).toBe("string");
}

/** An access token for the app from the tenant's token endpoint (credentials in the form body). */
export async function accessToken(apiUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const reply = await fetchReply(`${apiUrl}/token`, {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.access_token as string;
}
