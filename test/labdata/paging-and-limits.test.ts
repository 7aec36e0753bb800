// Reading long lists through the cursor API, and staying within the platform's rate limit.
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { connectInMemory, textOf, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv, servedEndingWith } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));

const listPage = async (args: Record<string, unknown>, onprogress?: (p: { message?: string }) => void) =>
  JSON.parse(
    textOf(
      await conn.client.callTool(
        { name: "labdata_list_entities", arguments: { ...args, response_format: "json" } },
        undefined,
        onprogress ? { onprogress } : undefined,
      ),
    ).text,
  );

describe("offset paging over the cursor API", () => {
  it("costs one remote page per tool page, reading a project to its end", async () => {
    const projectId = emulator.demo.projects["Plasmid Library"] as string;
    emulator.requests.clear();
    const ids = new Set<string>();
    let offset: number | null = 0;
    let pages = 0;
    let total = 0;
    while (offset !== null && pages < 40) {
      const page = await listPage({ project_id: projectId, limit: 100, offset });
      for (const sequence of page.entities) ids.add(sequence.id);
      total = page.total;
      offset = page.next_offset;
      pages++;
    }
    expect(offset).toBeNull();
    expect(ids.size).toBe(total);
    expect(servedEndingWith(emulator, "/api/v2/dna-sequences")).toBe(pages);
  });

  it("walks to a far offset in pages of 100, reporting progress, and lands exactly there", async () => {
    const reference = await listPage({ limit: 100, offset: 0 }); // any stable order will do; compare with itself
    expect(reference.total).toBeGreaterThan(1920);
    const fresh = await connectInMemory(labdataService, apiKeyEnv(emulator.demo));
    emulator.requests.clear();
    const progress: string[] = [];
    const far = JSON.parse(
      textOf(
        await fresh.client.callTool(
          {
            name: "labdata_list_entities",
            arguments: { limit: 20, offset: 1900, response_format: "json" },
          },
          undefined,
          { onprogress: (p) => progress.push(p.message ?? "") },
        ),
      ).text,
    );
    expect(far).toMatchObject({ offset: 1900, count: 20 });
    expect(servedEndingWith(emulator, "/api/v2/dna-sequences")).toBe(20);
    expect(progress.length).toBeGreaterThanOrEqual(10);
    expect(progress[0]).toMatch(/^Skipping to offset 1900: 0 of 1900 read$/);

    // The same rows as reading there sequentially.
    const sequential = await listPage({ limit: 20, offset: 1900 });
    expect(far.entities.map((s: { id: string }) => s.id)).toEqual(
      sequential.entities.map((s: { id: string }) => s.id),
    );
    await fresh.close();
  });
});

describe("rate limit", () => {
  it("keeps a burst within a stricter limit the platform announces, with no 429 and no failed call", async () => {
    const { tenant } = emulator.demo;
    emulator.admin.updateSettings(tenant, { rateLimit: { requests: 5, windowMs: 2000 } });
    const limited = await connectInMemory(labdataService, apiKeyEnv(emulator.demo));
    try {
      const call = () => limited.client.callTool({ name: "labdata_list_projects", arguments: {} });
      await call(); // the first answer tells the limit
      emulator.requests.clear();
      const results = await Promise.all(Array.from({ length: 9 }, call));
      expect(results.every((result) => !textOf(result).isError)).toBe(true);
      // Every request reached the platform once: none was refused and retried.
      expect(servedEndingWith(emulator, "/api/v2/projects")).toBe(9);
    } finally {
      emulator.admin.updateSettings(tenant, { rateLimit: { requests: 100, windowMs: 10_000 } });
      await limited.close();
    }
  });

  it("retries a 429 after its Retry-After and reports progress while it waits", async () => {
    emulator.faults.inject(
      {
        kind: "status",
        status: 429,
        headers: { "retry-after": "1" },
        body: '{"error":{"message":"slow down"}}',
      },
      { path: `${new URL(emulator.demo.baseUrl).pathname}/api/v2/projects` },
    );
    const progress: string[] = [];
    const result = textOf(
      await conn.client.callTool({ name: "labdata_list_projects", arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p.message ?? ""),
      }),
    );
    expect(result.isError).toBe(false);
    expect(progress.some((message) => /Waiting \d+ s for the remote rate limit \(429\)/.test(message))).toBe(
      true,
    );
  });
});
