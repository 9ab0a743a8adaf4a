// `npm run test:e2e`: packages the extension, then runs test/e2e/scenarios/*.mjs in order,
// each in a fresh real VS Code (code-server) session on a fresh copy of examples/.
//
// Usage: node test/e2e/run.mjs [FILTER|PATH.mjs ...]
//   FILTER       runs the scenarios whose file name contains it (e.g. `00`)
// Environment:
//   PI_E2E_VSIX           use this .vsix instead of running `npm run package`
//   PI_CODE_SERVER_HOME   code-server install (see scripts/setup-code-server.sh)
//   PI_E2E_TIMEOUT_MS     the whole run's budget (default 480000 = 8 min)
//   PI_E2E_KEEP_TMP       keep the sessions' temp dirs (user data, logs)
//   PI_SCREENSHOTS_DIR    where `shot()` writes (default test-results/screenshots)
// A scenario file: `export const name = '…'; export async function run(ctx) { … }`, optionally
// `export const settings = {…}` (user settings), `trust = false`, `timeoutMs = …`, and
// `export async function prepare(workspace)` to add files before VS Code opens the copy.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { installExtension, startSession, withTimeout } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const scenariosDir = path.join(here, "scenarios");
// Git-ignored test results, unless `npm run screenshots` names docs/screenshots.
const screenshotsDir = path.resolve(
  root,
  process.env.PI_SCREENSHOTS_DIR ?? path.join("test-results", "screenshots"),
);
const artifactsDir = path.join(root, ".e2e"); // git-ignored: logs and failure screenshots
const RUN_BUDGET_MS = Number(process.env.PI_E2E_TIMEOUT_MS ?? 720_000);
const SCENARIO_TIMEOUT_MS = 120_000;
const started = Date.now();
const elapsed = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (line) => process.stdout.write(`${line}\n`);

function sh(cmd, args, what) {
  const res = spawnSync(cmd, args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) {
    process.stderr.write(`${res.stdout}${res.stderr}`);
    throw new Error(`${what} failed (exit ${res.status ?? res.signal})`);
  }
  return res.stdout;
}

async function listScenarios(args) {
  const all = (await fs.readdir(scenariosDir).catch(() => []))
    .filter((f) => f.endsWith(".mjs"))
    .sort()
    .map((f) => path.join(scenariosDir, f));
  if (args.length === 0) return all;
  const picked = [];
  for (const a of args) {
    if (a.endsWith(".mjs")) picked.push(path.resolve(a));
    else picked.push(...all.filter((f) => path.basename(f).includes(a)));
  }
  return [...new Set(picked)];
}

async function main() {
  const files = await listScenarios(process.argv.slice(2));
  if (files.length === 0) throw new Error("no scenario matched");

  let t0 = Date.now();
  const setupOut = sh(
    "bash",
    [path.join(root, "scripts", "setup-code-server.sh")],
    "scripts/setup-code-server.sh",
  );
  const codeServer = setupOut.trim().split("\n").pop();
  say(`# code-server ready: ${codeServer} (${elapsed(t0)})`);

  t0 = Date.now();
  let vsix = process.env.PI_E2E_VSIX;
  if (vsix) vsix = path.resolve(vsix);
  else {
    vsix = path.join(root, "dist", "palette-inspector.vsix");
    // "files": ["dist"] would pack a previous .vsix into the new one, and vsce fails on it.
    await fs.rm(vsix, { force: true });
    sh("npm", ["run", "--silent", "package"], "npm run package");
  }
  await fs.access(vsix);
  say(`# extension: ${path.relative(root, vsix) || vsix} (${elapsed(t0)})`);

  const runTmp = await fs.mkdtemp(path.join(os.tmpdir(), "pi-e2e-run-"));
  const extensionsDir = path.join(runTmp, "extensions");
  await fs.mkdir(extensionsDir, { recursive: true });
  // Installed once for the run; every session reads the same extensions folder.
  installExtension({
    codeServer,
    vsix,
    extensionsDir,
    userDataDir: path.join(runTmp, "install-user-data"),
    envDir: runTmp,
  });
  // The test-only debugpy debugger (test/e2e/debugpy-extension), packaged by the project's vsce.
  const testVsix = path.join(runTmp, "palette-test-debugpy.vsix");
  const packed = spawnSync(
    path.join(root, "node_modules", ".bin", "vsce"),
    ["package", "--no-dependencies", "--allow-missing-repository", "--out", testVsix],
    { cwd: path.join(here, "debugpy-extension"), encoding: "utf8", timeout: 120_000 },
  );
  if (packed.status !== 0)
    throw new Error(`packaging the test debugger failed:\n${packed.stdout}${packed.stderr}`);
  installExtension({
    codeServer,
    vsix: testVsix,
    extensionsDir,
    userDataDir: path.join(runTmp, "install-user-data"),
    envDir: runTmp,
  });
  await fs.rm(artifactsDir, { recursive: true, force: true });
  await fs.mkdir(artifactsDir, { recursive: true });

  let passed = 0;
  let failed = 0;
  let active; // the session in use, so a signal can stop it
  const stop = async (sig) => {
    await active?.close();
    process.exit(sig === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);

  try {
    for (const [i, file] of files.entries()) {
      const id = path.basename(file, ".mjs");
      const t1 = Date.now();
      const left = RUN_BUDGET_MS - (Date.now() - started);
      if (left <= 0) {
        failed++;
        say(`FAIL ${id}: not run, the e2e budget of ${RUN_BUDGET_MS} ms is spent`);
        continue;
      }
      let scenario = { name: id };
      let session;
      try {
        scenario = await import(pathToFileURL(file).href);
        if (typeof scenario.run !== "function") throw new Error(`${file} exports no run(ctx)`);
        const workspace = path.join(runTmp, `workspace-${i}`);
        await fs
          .cp(path.join(root, "examples"), workspace, { recursive: true })
          .catch(async (e) => {
            if (e.code !== "ENOENT") throw e;
            await fs.mkdir(workspace, { recursive: true });
          });
        // Inputs too big for the repository are written into the copy before VS Code opens it.
        await scenario.prepare?.(workspace);
        const logDir = path.join(artifactsDir, id);
        const timeout = Math.min(scenario.timeoutMs ?? SCENARIO_TIMEOUT_MS, left);
        let timedOut = false;
        await withTimeout(
          (async () => {
            session = await startSession({
              codeServer,
              workspace,
              extensionsDir,
              logDir,
              settings: scenario.settings ?? {},
              trust: scenario.trust ?? true,
            });
            active = session;
            if (timedOut) {
              await session.close();
              return;
            }
            say(`  ${id}: VS Code ready in ${elapsed(t1)}`);
            const ctx = {
              ...session,
              page: session.page,
              workspace,
              root,
              vsix,
              assert,
              screenshotsDir,
              artifactsDir: logDir,
              /** Saves NAME (PNG) in the screenshots directory. */
              shot: (name) => session.screenshot(path.join(screenshotsDir, name)),
              log: (msg) => say(`  ${id}: ${msg}`),
            };
            await scenario.run(ctx);
          })(),
          timeout,
          `timed out after ${timeout} ms`,
          () => {
            timedOut = true;
          },
        );
        passed++;
        say(`ok   ${id} — ${scenario.name} (${elapsed(t1)})`);
      } catch (err) {
        failed++;
        const logDir = path.join(artifactsDir, id);
        if (session?.page) {
          await session.screenshot(path.join(logDir, "failure.png")).catch(() => {});
        }
        if (session?.userDataDir) {
          await fs
            .cp(path.join(session.userDataDir, "logs"), path.join(logDir, "vscode-logs"), {
              recursive: true,
            })
            .catch(() => {});
        }
        say(`FAIL ${id} — ${scenario.name} (${elapsed(t1)}): ${err?.stack ?? err}`);
        say(`     logs: ${path.relative(root, logDir)}/`);
      } finally {
        await session?.close();
        active = undefined;
      }
    }
  } finally {
    if (!process.env.PI_E2E_KEEP_TMP)
      await fs.rm(runTmp, { recursive: true, force: true }).catch(() => {});
  }

  say(`# e2e took ${elapsed(started)}`);
  say(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    say(`e2e setup failed: ${err?.stack ?? err}`);
    say("0 passed, 1 failed");
    process.exitCode = 1;
  },
);
