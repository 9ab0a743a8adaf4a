// The unit tests as Stryker runs them: the same suite, with room for a machine busy mutating.
// MUTATION_TESTS (comma-separated globs) narrows the suite while measuring one area; the score
// is then a lower bound (tests left out cannot kill).
import { defineConfig } from "vitest/config";
import base from "./vitest.config.mts";

const only = process.env.MUTATION_TESTS?.split(",").filter(Boolean);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    include: only ?? base.test?.include,
    // It reads each log in a child process, whose coverage Stryker never sees, so it kills no
    // mutant; and there, instrumented, six readings of a 4 MB line outrun the child's timeout.
    exclude: [...(base.test?.exclude ?? []), "test/node/hostile-slices.test.ts"],
    setupFiles: ["test/mutation-setup.ts"],
    // Instrumented code is about four times slower: the event-loop budgets (host-cpu.ts) with it.
    env: { PI_SLICE_SCALE: "4" },
  },
});
