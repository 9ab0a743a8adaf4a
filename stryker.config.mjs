// `npm run mutation`: Stryker mutates the engine and the host layer and runs the vitest tests that
// cover each mutant. Reports: reports/mutation/index.html and mutation.json (git-ignored).
// Too slow for CI on two cores; run it with a narrower --mutate while working on one area, e.g.
// `npm run mutation -- --mutate "src/core/stages/**/*.ts"`.
// MUTATION_PART=name measures one part for the record: a fresh run (no incremental file) whose
// reports go to reports/mutation/parts/name.{json,html}; `npm run mutation:score` adds the parts up.
const part = process.env.MUTATION_PART;
const reportBase = part ? `reports/mutation/parts/${part}` : "reports/mutation/mutation";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Per-test coverage already picks the tests for each mutant; no import-graph search on top.
  vitest: { configFile: "vitest.mutation.config.mts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: ["src/core/**/*.ts", "src/extension/**/*.ts"],
  coverageAnalysis: "perTest",
  // The machine is shared: one test process at a time.
  concurrency: 1,
  // Added to a mutant's usual test time: a mutant that loops forever is stopped after this.
  timeoutMS: 5_000,
  // Re-runs while working on one area test only what changed since the last report. It can keep an
  // old "Survived" that a new test now kills: delete the file before measuring a part's final score.
  incremental: !part,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  // At the lowest priority on a shared machine the first full run can take many minutes.
  dryRunTimeoutMinutes: 60,
  // A static mutant (a module-level constant) needs the whole suite re-run; skip those.
  ignoreStatic: true,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: part ? `${reportBase}.html` : "reports/mutation/index.html" },
  jsonReporter: { fileName: `${reportBase}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  thresholds: { high: 90, low: 75, break: null },
};
