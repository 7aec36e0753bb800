// protocols_download_pdf: saved under the downloads folder with a safe name, path, size and page count
// returned; within the repository's PDF limit (5 a minute signed in, 3 anonymous) a call waits for a
// slot, reporting progress, instead of failing.
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { pdfPageCount, safeFileStem } from "../../packages/lab-mcp/src/services/protocols/format/pdf-file.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { pageTreeCount } from "../emulators/protocols/pdf-bytes.js";
import { callJson, callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import type { ProtocolSummary } from "../support/protocols.js";
import {
  clientTokenEnv,
  listening,
  publicProtocols,
  servedStartingWith,
  tempHome,
} from "../support/protocols.js";

const emulator = useProtocolsEmulator();
beforeEach(() => {
  emulator.admin.resetRateLimits();
});

describe("downloads", () => {
  it("waits out the repository's 429 when the minute was used up elsewhere, then succeeds", async () => {
    const [protocol] = await publicProtocols(emulator, 1);
    const uri = (protocol as ProtocolSummary).uri;
    // Another program of the same user used this minute's five PDFs.
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${emulator.url}/view/${uri}.pdf`, {
        headers: { authorization: `Bearer ${emulator.demo.clientAccessToken}` },
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    emulator.clock.advance(56_000);
    const connection = listening(await connectInMemory(protocolsService, clientTokenEnv(emulator)));
    emulator.requests.clear();
    const result = await callText(connection, "protocols_download_pdf", { protocol: uri });
    expect(result.isError, result.text).toBe(false);
    expect(servedStartingWith(emulator, "/view/")).toBe(2); // refused with Retry-After, then servedStartingWith
    expect(
      connection.heard.progress.some((m) => /^Waiting \d+ s for the remote rate limit \(429\)$/.test(m)),
    ).toBe(true);
    await connection.close();
  }, 30_000);

  it("downloads a public protocol anonymously by uri; an id then needs a sign-in", async () => {
    const downloads = tempHome().downloads;
    const connection = await connectInMemory(protocolsService, {
      PROTOCOLS_BASE_URL: emulator.url,
      PROTOCOLS_DOWNLOAD_DIR: downloads,
    });
    const [protocol] = (await publicProtocols(emulator, 1)) as [ProtocolSummary];
    const result = await callText(connection, "protocols_download_pdf", { protocol: protocol.uri });
    expect(result.text).toContain(`# PDF saved: ${protocol.uri}\n`);
    expect(result.text).toContain("- **Downloaded with**: anonymously (public protocols only)");
    expect(existsSync(`${downloads}/${protocol.uri}.pdf`)).toBe(true);

    expect(await callText(connection, "protocols_download_pdf", { protocol: String(protocol.id) })).toEqual({
      isError: true,
      text: "Error: Without a sign-in, protocols_download_pdf needs the protocol's uri (from protocols_search), not its id.",
    });
    await connection.close();
  });

  it("gets the not-found text for a private protocol anonymously, and saves it (0600) with the owner's token", async () => {
    const downloads = tempHome().downloads;
    const mine = await fetch(`${emulator.url}/api/v3/protocols?filter=user_private&page_size=1`, {
      headers: { authorization: `Bearer ${emulator.demo.clientAccessToken}` },
    });
    const [privateOne] = ((await mine.json()) as { items: ProtocolSummary[] }).items as [ProtocolSummary];
    const anonymous = await connectInMemory(protocolsService, { PROTOCOLS_BASE_URL: emulator.url });
    expect(await callText(anonymous, "protocols_download_pdf", { protocol: privateOne.uri })).toEqual({
      isError: true,
      text: "Error: Resource not found. Please check the ID is correct.",
    });
    await anonymous.close();

    const owner = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: downloads }),
    );
    const saved = await callJson<{ path: string; bytes: number; pages: number; title: string }>(
      owner,
      "protocols_download_pdf",
      { protocol: String(privateOne.id) },
    );
    expect(saved).toEqual({
      path: `${downloads}/${privateOne.uri}.pdf`,
      bytes: statSync(saved.path).size,
      pages: pageTreeCount(readFileSync(saved.path)),
      resource_uri: `protocols://protocols/${privateOne.uri}/pdf`,
      protocol_id: privateOne.id,
      uri: privateOne.uri,
      title: privateOne.title,
      downloaded_as: "client_token",
    });
    expect(statSync(saved.path).mode & 0o777).toBe(0o600);
    await owner.close();
  });

  it("saves the same protocol to the same file again, and never overwrites another file", async () => {
    const downloads = tempHome().downloads;
    const connection = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: downloads }),
    );
    const [protocol] = (await publicProtocols(emulator, 1)) as [ProtocolSummary];
    const path = (
      await callJson<{ path: string }>(connection, "protocols_download_pdf", { protocol: protocol.uri })
    ).path;
    const again = (
      await callJson<{ path: string }>(connection, "protocols_download_pdf", { protocol: protocol.uri })
    ).path;
    expect(again).toBe(path);
    writeFileSync(path, "my annotated copy");
    const third = (
      await callJson<{ path: string }>(connection, "protocols_download_pdf", { protocol: protocol.uri })
    ).path;
    expect(third).toBe(`${dirname(path)}/${protocol.uri}-2.pdf`);
    expect(readFileSync(path, "utf8")).toBe("my annotated copy");
    await connection.close();
  });
});

describe("special files at the PDF's name", () => {
  /** Unblocks any reader waiting on the FIFO, so that a failing run cannot leave a thread stuck in open(). */
  function releaseFifo(path: string): void {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it, as it should be.
    }
  }

  const refusal = (path: string, kind: string) =>
    `Error: Cannot save the PDF as ${path}: something else is there (${kind}), and it was left as it is. Move ` +
    "it away, or set PROTOCOLS_DOWNLOAD_DIR to another folder, then try again.";

  it("refuses a FIFO at the file's name, without opening it (it would hang the download)", async () => {
    const downloads = tempHome().downloads;
    mkdirSync(downloads, { recursive: true });
    const [protocol] = (await publicProtocols(emulator, 1)) as [ProtocolSummary];
    const fifo = join(downloads, `${protocol.uri}.pdf`);
    execFileSync("mkfifo", ["-m", "600", fifo]);
    const connection = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: downloads }),
    );
    try {
      const result = await callText(connection, "protocols_download_pdf", { protocol: protocol.uri });
      expect(result).toEqual({ isError: true, text: refusal(fifo, "a named pipe") });
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(downloads)).toEqual([`${protocol.uri}.pdf`]); // no temporary file left behind
    } finally {
      releaseFifo(fifo);
      await connection.close();
    }
  });

  it("does not follow a symbolic link at the file's name: neither to a file nor to a FIFO", async () => {
    const home = tempHome();
    mkdirSync(home.downloads, { recursive: true });
    const [protocol] = (await publicProtocols(emulator, 1)) as [ProtocolSummary];
    const link = join(home.downloads, `${protocol.uri}.pdf`);
    const victim = join(home.dir, "victim.txt");
    const fifo = join(home.dir, "elsewhere.fifo");
    writeFileSync(victim, "not yours");
    execFileSync("mkfifo", ["-m", "600", fifo]);
    const connection = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: home.downloads }),
    );
    try {
      for (const target of [victim, fifo]) {
        rmSync(link, { force: true });
        symlinkSync(target, link);
        const result = await callText(connection, "protocols_download_pdf", { protocol: protocol.uri });
        expect(result).toEqual({ isError: true, text: refusal(link, "a symbolic link") });
        expect(readlinkSync(link)).toBe(target);
      }
      expect(readFileSync(victim, "utf8")).toBe("not yours");
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(home.downloads)).toEqual([`${protocol.uri}.pdf`]);
    } finally {
      releaseFifo(fifo);
      await connection.close();
    }
  });
});

describe("file names and page counts", () => {
  it("makes a safe file name of any uri", () => {
    expect(safeFileStem("western-blot-for-erk-4haf43q", "x")).toBe("western-blot-for-erk-4haf43q");
    expect(safeFileStem("../../etc/passwd", "x")).toBe("etc-passwd");
    expect(safeFileStem(".hidden", "x")).toBe("hidden");
    expect(safeFileStem("ｗｅｉｒｄ / Ünïcode?*", "x")).toBe("weird-Unicode");
    expect(safeFileStem("////", "protocol-12")).toBe("protocol-12");
    expect(safeFileStem("a".repeat(300), "x")).toHaveLength(120);
  });

  it("counts pages from the page tree, or the page objects", () => {
    expect(pdfPageCount(Buffer.from("%PDF-1.3\n1 0 obj << /Type /Pages /Count 3 /Kids [] >>"))).toBe(3);
    expect(pdfPageCount(Buffer.from("%PDF-1.3\n<< /Type /Page >> << /Type /Page >>"))).toBe(2);
    expect(pdfPageCount(Buffer.from("%PDF-1.5\n(compressed)"))).toBeUndefined();
  });
});
