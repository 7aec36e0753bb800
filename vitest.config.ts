import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Forks, not threads: each worker is a Node process that trusts the emulators' CA through
    // NODE_EXTRA_CA_CERTS, which the global setup sets before any worker starts.
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
