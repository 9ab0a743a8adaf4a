// The unit tests as Stryker runs them: the same suite, with room for a machine busy mutating.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.mts";

export default mergeConfig(
  base,
  defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } }),
);
