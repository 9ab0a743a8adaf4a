import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Host code imports `vscode`; in plain Node the tests give it a fake (test/fakes/vscode/, one module per API area).
    alias: { vscode: fileURLToPath(new URL("./test/fakes/vscode.ts", import.meta.url)) },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // test/otel-libs installs its own packages (the instrumentation libraries it records).
    exclude: [
      "test/browser/**",
      "test/e2e/**",
      "node_modules/**",
      "test/otel-libs/node_modules/**",
    ],
    pool: "threads",
    maxWorkers: 2,
    // A guard against hangs, not a speed goal: property tests take seconds on a loaded machine.
    testTimeout: 30_000,
  },
});
