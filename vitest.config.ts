import { defineConfig } from "vitest/config";

// Most test files wait on sockets, child processes and timers far more than they compute, so they run
// several at a time (TEST_WORKERS, default 3 on this project's 2-core machines). The files whose
// assertions measure time or memory, or that keep both cores busy themselves (npm pack and install, 200
// sign-ins in a row), run afterwards one at a time, so that no other file skews what they measure.
const ALONE = [
  "test/reliability/load.test.ts",
  "test/reliability/hostile-remote.test.ts",
  "test/labdata/genbank/read-write.test.ts",
  "test/packaging/install-from-tarball.test.ts",
  "test/packaging/mcpb-bundle.test.ts",
  "test/packaging/readme-scripts.test.ts",
  "test/contract/labdata-generated.test.ts",
  // Replicas racing a sign-out against a sign-in: seen to lose the race once with two other files beside.
  "test/protocols/fleet-sign-in.test.ts",
];

const workers = Number.parseInt(process.env.TEST_WORKERS ?? "", 10);

export default defineConfig({
  test: {
    // Forks, not threads: each worker is a Node process that trusts the emulators' CA through
    // NODE_EXTRA_CA_CERTS, which the global setup sets before any worker starts.
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts", "./test/support/hang-reporter.ts"],
    // Generous: a limit only matters when something hangs, and three files at a time on two cores make
    // a test that takes 15 s alone take longer.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "together",
          include: ["test/**/*.test.ts"],
          exclude: ALONE,
          maxWorkers: Number.isInteger(workers) && workers > 0 ? workers : 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
