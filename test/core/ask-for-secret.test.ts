// Asking the user for a secret: URL-mode elicitation of a one-time page on 127.0.0.1 whose form sends
// the secret to the server, never through the client.
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectInMemory, textOf } from "../support/clients.js";
import { probeService } from "./probe-service.js";

const PASSPHRASE = "correct horse battery staple";

describe("askForSecret", () => {
  it("opens a local password page; what the user types there reaches the tool, not the client", async () => {
    const connection = await connectInMemory(probeService, {}, { elicitation: { url: {} } });
    const seen: {
      url?: string;
      message?: string;
      completed?: string;
      page?: string;
      elicitationId?: string;
    } = {};
    connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode?: string; url: string; message: string; elicitationId: string };
      if (params.mode !== "url") throw new Error("expected URL mode");
      Object.assign(seen, { url: params.url, message: params.message, elicitationId: params.elicitationId });
      // The user opens the page and types the passphrase, after the client has said yes.
      setTimeout(async () => {
        seen.page = await (await fetch(params.url)).text();
        const form = new URLSearchParams({ secret: `  ${PASSPHRASE} `, remember: "on" });
        await fetch(params.url, { method: "POST", body: form });
      }, 10);
      return { action: "accept" };
    });
    connection.client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      seen.completed = notification.params.elicitationId;
    });

    const result = textOf(await connection.client.callTool({ name: "probe_sign_in", arguments: {} }));
    expect(result).toEqual({
      text: `Got a passphrase of ${PASSPHRASE.length} characters; remember: true`,
      isError: false,
    });
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/secret\/[\w-]{32}$/);
    expect(seen.message).toBe("The probe needs your passphrase.");
    expect(seen.page).toContain('type="password"');
    expect(seen.page).toContain("Remember on this computer");
    expect(seen.completed).toBe(seen.elicitationId);
    // One answer only: the page is gone.
    await expect(fetch(seen.url as string)).rejects.toThrow();
    await connection.close();
  });

  it("refuses a form posted from another site", async () => {
    const connection = await connectInMemory(probeService, {}, { elicitation: { url: {} } });
    let foreignStatus = 0;
    connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const url = (request.params as { url: string }).url;
      setTimeout(async () => {
        const body = new URLSearchParams({ secret: "planted" });
        foreignStatus = (
          await fetch(url, { method: "POST", body, headers: { origin: "https://evil.example" } })
        ).status;
        await fetch(url, { method: "POST", body: new URLSearchParams({ secret: "mine" }) });
      }, 10);
      return { action: "accept" };
    });
    const result = textOf(await connection.client.callTool({ name: "probe_sign_in", arguments: {} }));
    expect(foreignStatus).toBe(403);
    expect(result.text).toBe("Got a passphrase of 4 characters; remember: false");
    await connection.close();
  });

  it("tells what to configure when the user declines", async () => {
    const connection = await connectInMemory(probeService, {}, { elicitation: { url: {} } });
    connection.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    const result = textOf(await connection.client.callTool({ name: "probe_sign_in", arguments: {} }));
    expect(result).toEqual({
      text: "Error: No passphrase given. Set PROBE_PASSPHRASE and restart the server.",
      isError: true,
    });
    await connection.close();
  });

  it("tells what to configure when the client cannot open URLs", async () => {
    const connection = await connectInMemory(probeService, {});
    const result = textOf(await connection.client.callTool({ name: "probe_sign_in", arguments: {} }));
    expect(result.text).toBe("Error: No passphrase given. Set PROBE_PASSPHRASE and restart the server.");
    await connection.close();
  });
});
