// What agents see of every tool of every server (name, title, description, input schema,
// annotations, the link to its view), as tools/list gives it to a client, compared with the checked-in
// tools.json: a change to any of it fails here until the snapshot is updated on purpose, and the diff
// shows it in review.
//
// Update after a deliberate change:  UPDATE_SNAPSHOTS=1 npx vitest run test/snapshots
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectInMemory, ROOT } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

const SNAPSHOT = join(import.meta.dirname, "tools.json");
const UPDATE = process.env.UPDATE_SNAPSHOTS === "1" || process.env.UPDATE_SNAPSHOTS === "true";

async function currentSnapshot(): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const { definition, env } of ALL_SERVICES) {
    // Every tool, writes included: neither read-only mode nor toolsets may hide one from the snapshot.
    const connection = await connectInMemory(definition, env);
    try {
      const { tools } = await connection.client.listTools();
      snapshot[definition.serverName] = tools.map(
        ({ name, title, description, inputSchema, outputSchema, annotations, _meta }) => ({
          name,
          title,
          description,
          inputSchema,
          outputSchema,
          annotations,
          // The link to the tool's view (MCP Apps), where it has one.
          ...(_meta ? { _meta } : {}),
        }),
      );
    } finally {
      await connection.close();
    }
  }
  return Object.fromEntries(Object.entries(snapshot).sort(([a], [b]) => a.localeCompare(b)));
}

describe("tool schema snapshot (test/snapshots/tools.json)", () => {
  it("matches what tools/list shows agents", async () => {
    const current = await currentSnapshot();
    if (UPDATE) {
      writeFileSync(SNAPSHOT, `${JSON.stringify(current, null, 2)}\n`);
      // In the project's own format, so that the lint passes on the file as written.
      execFileSync(join(ROOT, "node_modules", ".bin", "biome"), ["format", "--write", SNAPSHOT], {
        stdio: "ignore",
      });
    }
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(SNAPSHOT, "utf8"));
    } catch {
      throw new Error(
        `No readable ${SNAPSHOT}: create it with UPDATE_SNAPSHOTS=1 npx vitest run test/snapshots`,
      );
    }
    expect(
      current,
      "What agents see of the tools changed. If that is deliberate, update the snapshot with " +
        "UPDATE_SNAPSHOTS=1 npx vitest run test/snapshots and commit test/snapshots/tools.json with the change",
    ).toEqual(saved);
  });
});
