// A protocol's PDF as an MCP resource, not a path on the server's disk: protocols_download_pdf links
// protocols://protocols/{uri}/pdf (a link: the bytes come from reading it), saves a file only where the server runs
// on the user's computer (stdio), and a 2026-07-28 client reads the resource and hears progress while
// a read waits for a slot of the repository's PDF budget.
import { existsSync, readdirSync } from "node:fs";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { shownText, squash } from "../emulators/protocols/pdf-bytes.js";
import { callText, connectInMemory, connectModernInMemory, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { clientTokenEnv, publicProtocols, servedStartingWith, tempHome } from "../support/protocols.js";
import { readPdfResource } from "./pdf-text.js";

const emulator = useProtocolsEmulator();
beforeAll(async () => {
  emulator.admin.updateDialect({ preset: "legacy" });
});
beforeEach(() => {
  emulator.admin.resetRateLimits();
});

type Block = { type: string; uri?: string; name?: string; mimeType?: string; size?: number } & {
  resource?: { uri: string; mimeType?: string; blob?: string };
};

describe("protocols_download_pdf over HTTP", () => {
  it("links the PDF resource without its bytes, and writes nothing on the server's disk", async () => {
    const downloads = tempHome().downloads;
    const connection = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: downloads, MCP_TRANSPORT: "http" }),
    );
    const [protocol] = await publicProtocols(emulator, 1);
    if (!protocol) throw new Error("no public protocol");
    const result = await connection.client.callTool({
      name: "protocols_download_pdf",
      arguments: { protocol: String(protocol.id) },
    });
    const uri = `protocols://protocols/${protocol.uri}/pdf`;
    expect(textOf(result).text).toContain(`- **Resource**: ${uri}`);
    expect(textOf(result).text).not.toContain("**File**");
    // Linked, not embedded: the answer stays small; the client reads the resource for the bytes.
    const [, link, ...more] = result.content as Block[];
    expect(more).toEqual([]);
    expect(link).toMatchObject({
      type: "resource_link",
      uri,
      name: `${protocol.uri}.pdf`,
      mimeType: "application/pdf",
    });
    const { contents } = await connection.client.readResource({ uri });
    const [content] = contents as Array<{ blob?: string }>;
    const bytes = Buffer.from(content?.blob ?? "", "base64");
    expect(bytes.length).toBe(link?.size);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(result.structuredContent).toMatchObject({ path: null, resource_uri: uri, bytes: bytes.length });
    expect(existsSync(downloads) ? readdirSync(downloads) : []).toEqual([]);

    expect(
      await callText(connection, "protocols_download_pdf", {
        protocol: String(protocol.id),
        save_file: true,
      }),
    ).toEqual({
      isError: true,
      text:
        "Error: save_file is for a server on your own computer (stdio): this one is reached over HTTP, so its " +
        "folder is not yours. Leave save_file out and use the PDF resource the answer links to.",
    });
    await connection.close();
  });
});

describe("the PDF resource, 2026-07-28", () => {
  it("reads as a PDF blob; a read beyond the budget waits for a slot with progress", async () => {
    const connection = await connectModernInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: tempHome().downloads }),
    );
    const protocols = await publicProtocols(emulator, 6);
    emulator.requests.clear();
    for (const [i, protocol] of protocols.slice(0, 5).entries()) {
      const result = textOf(
        await connection.client.callTool({
          name: "protocols_download_pdf",
          arguments: { protocol: String(protocol.id) },
        }),
      );
      expect(result.isError, result.text).toBe(false);
      // Most of the repository's minute passes, so that the sixth waits seconds rather than a minute.
      if (i === 0) emulator.clock.advance(50_000);
    }
    const sixth = protocols[5];
    if (!sixth) throw new Error("fewer than six public protocols");
    const progress: string[] = [];
    const bytes = await readPdfResource(connection.client, sixth.uri, progress);
    expect(squash(shownText(bytes))).toContain(squash(sixth.title));
    expect(servedStartingWith(emulator, "/view/")).toBe(6);
    expect(progress.some((m) => /^Waiting \d+ s for the client-side rate limit$/.test(m))).toBe(true);
    await connection.close();
  }, 60_000);
});
