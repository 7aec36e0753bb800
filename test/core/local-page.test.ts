// The one-time loopback page under both its users (the secret page, the OAuth redirect target): the
// same security headers on every reply, one outcome, and no listener left once it is settled.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { escapeHtml, openLocalPage, textPage } from "../../packages/lab-mcp/src/core/pages/local-page.js";

function portOf(origin: string): number {
  return Number(new URL(origin).port);
}

/** Whether something listens on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("openLocalPage", () => {
  it("answers with the security headers, settles once, closes the last connection and the port", async () => {
    const page = await openLocalPage<string>({
      expired: textPage(410, "Over", "This page has expired."),
      lingerMs: 10,
      async handle(req, url, settle) {
        if (req.method === "GET") return textPage(200, "Ask", `path ${url.pathname}`);
        settle({ value: "first" });
        settle({ value: "second" });
        return textPage(200, "Thanks", "Done <b>here</b>.");
      },
    });
    const first = await fetch(`${page.origin}/x`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("referrer-policy")).toBe("same-origin");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(await first.text()).toContain("path /x");

    const last = await fetch(`${page.origin}/x`, { method: "POST" });
    expect(last.headers.get("connection")).toBe("close");
    expect(await last.text()).toContain("Done &#60;b&#62;here&#60;/b&#62;.");
    await expect(page.result).resolves.toBe("first");
    expect(page.isSettled()).toBe(true);
    expect(await listening(portOf(page.origin))).toBe(false);
  });

  it("ends with the timeout's error when nothing settles it, and close() after that changes nothing", async () => {
    const page = await openLocalPage<string>({
      expired: textPage(410, "Over", "Over."),
      timeout: { ms: 50, error: () => new Error("nobody came") },
      handle: async () => textPage(200, "Wait", "Waiting."),
    });
    await expect(page.result).rejects.toThrow("nobody came");
    page.close(new Error("closed"));
    await expect(page.result).rejects.toThrow("nobody came");
    expect(await listening(portOf(page.origin))).toBe(false);
  });

  it("close() ends an open page with its error and frees the port at once", async () => {
    const page = await openLocalPage<string>({
      expired: textPage(410, "Over", "Over."),
      handle: async () => textPage(200, "Wait", "Waiting."),
    });
    page.close(new Error("stopped"));
    await expect(page.result).rejects.toThrow("stopped");
    expect(await listening(portOf(page.origin))).toBe(false);
  });

  it("a handler that throws gets a plain 500 page, and the page goes on", async () => {
    let calls = 0;
    const page = await openLocalPage<string>({
      expired: textPage(410, "Over", "Over."),
      async handle() {
        calls += 1;
        if (calls === 1) throw new Error("secret detail");
        return textPage(200, "Fine", "Fine.");
      },
    });
    const failed = await fetch(page.origin);
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain("secret detail");
    expect((await fetch(page.origin)).status).toBe(200);
    page.close(new Error("done"));
  });

  it("escapes the five HTML characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });
});
