import { defineConfig } from "vitest/config";

// Limits only a hang reaches, on a machine several times slower than a developer's: waits are for
// what a server answers or logs, so a generous limit costs nothing when things go well.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    environment: "node",
    // Test files' PostgreSQL schemas are dropped at the end of the run, never while others migrate.
    globalSetup: ["test/support/postgres-schemas.ts"],
    // Test files mostly wait (for servers, databases, mail, hashing threads): one per core, where
    // Vitest would leave one core to itself (on two cores, one file at a time).
    maxWorkers: "100%",
    testTimeout: 90_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 20_000 } },
  },
});
