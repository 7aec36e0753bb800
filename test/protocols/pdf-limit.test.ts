// Six PDF downloads in a row, all within the repository's limit of 5 a minute: the sixth waits for a
// slot, reporting progress while it waits, instead of failing. (Its own file, so that its wait runs
// beside the other tests.)
import { readFileSync } from "node:fs";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { pageTreeCount, shownText, squash } from "../emulators/protocols/pdf-bytes.js";
import { callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import type { ProtocolSummary } from "../support/protocols.js";
import {
  clientTokenEnv,
  listening,
  publicProtocols,
  servedStartingWith,
  tempHome,
} from "../support/protocols.js";
import { readPdfResource } from "./pdf-text.js";

const emulator = useProtocolsEmulator();
beforeAll(async () => {
  // Titles are taken straight from the API as the expected text: the plain dialect has no HTML in them.
  emulator.admin.updateDialect({ preset: "legacy" });
});
beforeEach(() => {
  emulator.admin.resetRateLimits();
});

describe("six downloads in a row", () => {
  it("all succeed within the limit: the sixth waits for a slot and reports progress meanwhile", async () => {
    const downloads = tempHome().downloads;
    const connection = listening(
      await connectInMemory(
        protocolsService,
        clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: downloads }),
      ),
    );
    const protocols = await publicProtocols(emulator, 6);
    emulator.requests.clear();
    const results: Array<{ text: string; isError: boolean; ms: number; progress: string[] }> = [];
    for (const [i, protocol] of protocols.entries()) {
      connection.heard.progress = [];
      const started = Date.now();
      const result = await callText(connection, "protocols_download_pdf", { protocol: String(protocol.id) });
      results.push({ ...result, ms: Date.now() - started, progress: connection.heard.progress });
      // Most of the repository's minute passes after the first download (its clock, moved on), so that
      // the sixth download waits about twelve seconds (our 5-a-minute bucket) rather than a whole minute.
      if (i === 0) emulator.clock.advance(50_000);
    }

    for (const [i, result] of results.entries()) {
      const protocol = protocols[i] as ProtocolSummary;
      expect(result.isError, result.text).toBe(false);
      const path = `${downloads}/${protocol.uri}.pdf`;
      const bytes = readFileSync(path);
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(result.text).toBe(
        [
          `# PDF saved: ${protocol.title} (${protocol.id})`,
          "",
          `- **File**: ${path}`,
          `- **Resource**: protocols://protocols/${protocol.uri}/pdf`,
          `- **Size**: ${(bytes.length / 1024).toFixed(1)} KB (${bytes.length.toLocaleString("en-US")} bytes)`,
          `- **Pages**: ${pageTreeCount(bytes)}`,
          "- **Downloaded with**: client token (PROTOCOLS_ACCESS_TOKEN)",
        ].join("\n"),
      );
      expect(squash(shownText(bytes))).toContain(squash(protocol.title));
    }
    // Every PDF request reached the repository once: none was refused with 429 and sent again.
    expect(servedStartingWith(emulator, "/view/")).toBe(6);
    // The first five went straight through; the sixth waited for a slot, and said so while it waited.
    const waiting = (progress: string[]) =>
      progress.filter((m) => /^Waiting \d+ s for the client-side rate limit$/.test(m));
    for (const result of results.slice(0, 5)) expect(waiting(result.progress)).toEqual([]);
    const sixth = results[5] as (typeof results)[number];
    expect(sixth.ms).toBeGreaterThan(5_000);
    expect(waiting(sixth.progress).length).toBeGreaterThanOrEqual(2);
    expect(sixth.progress.at(-1)).toBe("Saving the PDF");
    await connection.close();
  }, 60_000);

  it("counts a read of the PDF resource in the same budget: after five downloads, it waits for a slot", async () => {
    const connection = listening(
      await connectInMemory(
        protocolsService,
        clientTokenEnv(emulator, { PROTOCOLS_DOWNLOAD_DIR: tempHome().downloads }),
      ),
    );
    const protocols = await publicProtocols(emulator, 6);
    emulator.requests.clear();
    for (const [i, protocol] of protocols.slice(0, 5).entries()) {
      const result = await callText(connection, "protocols_download_pdf", { protocol: String(protocol.id) });
      expect(result.isError, result.text).toBe(false);
      if (i === 0) emulator.clock.advance(50_000);
    }
    const sixth = protocols[5] as ProtocolSummary;
    const progress: string[] = [];
    const bytes = await readPdfResource(connection.client, sixth.uri, progress);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(squash(shownText(bytes))).toContain(squash(sixth.title));
    expect(servedStartingWith(emulator, "/view/")).toBe(6);
    // It waited for a slot of the same bucket, and said so while it waited.
    expect(
      progress.filter((m) => /^Waiting \d+ s for the client-side rate limit$/.test(m)).length,
    ).toBeGreaterThan(0);
    await connection.close();
  }, 60_000);
});
