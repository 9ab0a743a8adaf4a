// Runs the webview's browser tests: builds dist/, bundles test/browser/*.test.ts with their helpers,
// and runs each in headless Chromium. One line per test, then "N passed, N failed".
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as esbuild from "esbuild";

execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "inherit" });

const files = readdirSync("test/browser")
  .filter((file) => file.endsWith(".test.ts"))
  .sort();
const only = process.argv[2];
// Inside the repository, so the bundle resolves playwright-core from node_modules.
mkdirSync("node_modules/.cache", { recursive: true });
const dir = mkdtempSync(join("node_modules/.cache", "palette-browser-"));
const outfile = join(dir, "tests.cjs");
await esbuild.build({
  stdin: {
    contents: [
      ...files.map((file) => `import "./${file}";`),
      `export { registered } from "./harness.ts"; export { launchChromium } from "./page.ts";`,
    ].join("\n"),
    resolveDir: "test/browser",
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile,
  packages: "external",
  logLevel: "warning",
});
const { registered, launchChromium } = createRequire(import.meta.url)(join(process.cwd(), outfile));
rmSync(dir, { recursive: true, force: true });

const browser = await launchChromium();
let passed = 0;
let failed = 0;
for (const { name, run } of registered) {
  if (only && !name.includes(only)) continue;
  const started = Date.now();
  try {
    await run(browser);
    passed++;
    console.log(`✓ ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.log(
      `✗ ${name}: ${String(error?.stack ?? error)
        .split("\n")
        .slice(0, 6)
        .join("\n    ")}`,
    );
  }
}
await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
