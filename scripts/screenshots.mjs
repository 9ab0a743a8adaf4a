// `npm run screenshots`: refreshes the committed pictures in docs/screenshots/ (the tests alone
// write to the git-ignored test-results/screenshots/). The webview's come from headless
// Chromium; the e2e ones from real VS Code, so code-server must be installed
// (scripts/setup-code-server.sh). Run only these with `npm run screenshots -- webview` or `-- e2e`.
import { spawnSync } from "node:child_process";

const env = { ...process.env, PI_SCREENSHOTS_DIR: "docs/screenshots" };
const which = process.argv[2];
const runs = [
  ["webview", ["test/browser/run.mjs", "screenshot"]],
  // The scenarios that call shot(): the panel in both themes, the Testing view, the debugger's
  // value, the statistics, live turns and a followed log.
  [
    "e2e",
    [
      "test/e2e/run.mjs",
      "10-fixture-panel",
      "30-testing-view",
      "60-debug",
      "70-statistics",
      "90-live",
    ],
  ],
];
let status = 0;
for (const [name, args] of runs) {
  if (which && which !== name) continue;
  console.log(`\n━━ ${name} screenshots → docs/screenshots/\n`);
  status ||= spawnSync(process.execPath, args, { stdio: "inherit", env }).status ?? 1;
}
// The README's pictures as the .vsix carries them, from the ones just taken.
if (status === 0 && which !== "webview")
  status =
    spawnSync(process.execPath, ["scripts/readme-images.mjs"], { stdio: "inherit" }).status ?? 1;
process.exitCode = status;
