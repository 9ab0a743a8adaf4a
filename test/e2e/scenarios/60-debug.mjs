// In real VS Code: debug a Python agent (Debian's debugpy, through the test-only debugger
// in test/e2e/debugpy-extension), inspect `result` from the Variables view, read 10,000 tools,
// Refresh after continuing to the next turn, and capture the turn as a fixture that the CLI
// replays to the program's own trace.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs/promises";
import * as path from "node:path";

export const name = "debugger: inspect a paused agent's SelectionResult, refresh, capture the turn";
export const timeoutMs = 180_000;

const PYTHON = "/usr/bin/python3";
const STAGES = ["intent", "forced", "role", "policy", "allowlist"];

/** What the stand-in pipeline records on the agent's second turn, straight from Python. */
function pythonTrace(root) {
  const script = `
import contextlib, dataclasses, io, json, runpy
with contextlib.redirect_stdout(io.StringIO()):
    agent = runpy.run_path("agent.py")
    result = agent["turn"]("show me the sales table", "support", agent["Verdict"]("action", ["sql"]))
print(json.dumps([dataclasses.asdict(r) for r in result.trace]))
`;
  const run = spawnSync(PYTHON, ["-c", script], {
    cwd: path.join(root, "test", "python"),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

export async function run({
  page,
  root,
  workspace,
  runCommand,
  hasCommand,
  clickMenuItem,
  findWebviewFrame,
  notifications,
  shot,
  assert,
  log,
}) {
  await fs.cp(path.join(root, "test", "python"), path.join(workspace, "agent"), {
    recursive: true,
    filter: (src) => !src.includes("__pycache__"),
  });
  // The test debugger's commands join the palette a moment after the workbench is up.
  const until = Date.now() + 30_000;
  while (!(await hasCommand("Palette Test: Debug Agent", { timeout: 3_000 })))
    assert.ok(Date.now() < until, "the test-only debugger extension is loaded");
  await runCommand("Palette Test: Debug Agent");

  // Paused on the first turn: the Run and Debug view opens with Locals expanded.
  const varRow = (name) =>
    page
      .locator(".debug-variables .monaco-list-row")
      .filter({ hasText: new RegExp(`^\\s*${name}\\s*=`) })
      .first();
  await varRow("result").waitFor({ state: "visible", timeout: 60_000 });
  await varRow("result").click({ button: "right" });
  const item = page
    .locator(".context-view .action-label", { hasText: "Inspect in Palette Inspector" })
    .first();
  await item.waitFor({ state: "visible", timeout: 10_000 });
  await clickMenuItem(item, "Inspect in Palette Inspector in the Variables view's context menu");

  let panel = await findWebviewFrame(".debug-origin", 60_000);
  const texts = (frame, selector) =>
    frame.locator(selector).evaluateAll((els) => els.map((e) => e.textContent.trim()));
  assert.match(
    await panel.locator(".debug-origin p").first().innerText(),
    /^Read from the debug session agent, frame turn \(agent\.py:\d+\), expression result$/,
  );
  assert.deepEqual(await texts(panel, ".waterfall .stage-row .stage-name"), STAGES);
  assert.equal(
    await panel.locator('.header [data-stat="flow"]').innerText(),
    "Offered 5 → final 3",
  );
  assert.match(await panel.locator('.header [data-stat="forced"]').innerText(), /get_weather/);
  assert.deepEqual(await texts(panel, ".model-sees .model-tools [data-tool]"), [
    "search",
    "get_weather",
    "final_answer",
  ]);
  assert.equal(await panel.locator(".tag-stale").count(), 0);
  await page.mouse.move(700, 800); // no hover tooltip in the picture
  await shot("e2e-debug-panel.png");
  log("inspected result from the Variables view");

  // 10,000 tools, by expression from the palette, arrive whole.
  await runCommand("Palette Inspector: Inspect Selection in Debug Session…");
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  assert.equal(await input.inputValue(), "result", "the last expression used is the default");
  await input.fill("big");
  const t0 = Date.now();
  await input.press("Enter");
  const big = await findWebviewFrame('.debug-origin bdi:text-is("big")', 60_000);
  await big
    .locator('.header [data-stat="flow"]', { hasText: "Offered 10,000 → final 10,000" })
    .waitFor({ state: "visible", timeout: 30_000 });
  log(`10,000 tools read and shown in ${Date.now() - t0} ms`);
  // Close it: the first panel, hidden behind it, comes back and re-renders.
  // Its tab's own close button: F1 after focusing a webview can be taken by the webview.
  const bigTab = page.locator('.tabs-container .tab[aria-label^="Selection Trace: big"]');
  await bigTab.hover();
  await bigTab.locator(".tab-actions .action-label").click();
  await bigTab.waitFor({ state: "detached", timeout: 10_000 });
  panel = await findWebviewFrame('.debug-origin bdi:text-is("result")', 30_000);

  // Continue to the next turn: the value is stale, then Refresh reads the next turn's.
  await runCommand("Debug: Continue");
  await panel.locator(".tag-stale").waitFor({ state: "visible", timeout: 20_000 });
  // Refresh reads the focused frame: until the program has stopped at the next turn, it reads nothing new.
  const secondTurn = panel.locator('.stage-row[data-stage="role"]', { hasText: /support/ });
  const deadline = Date.now() + 30_000;
  while (!(await secondTurn.isVisible())) {
    assert.ok(Date.now() < deadline, "Refresh shows the second turn");
    await panel.locator('[data-action="refresh"]').click();
    await secondTurn.waitFor({ state: "visible", timeout: 2_000 }).catch(() => {});
  }
  await panel.locator(".tag-stale").waitFor({ state: "detached", timeout: 10_000 });
  assert.equal(
    await panel.locator('.header [data-stat="flow"]').innerText(),
    "Offered 5 → final 2",
  );
  assert.match(await panel.locator('.header [data-stat="forced"]').innerText(), /No forced choice/);
  log("refreshed to the second turn");

  // Capture the turn: the pipeline's configuration as an editable fixture.
  await panel.locator('[data-action="captureTurn"]').click();
  await input.waitFor({ state: "visible", timeout: 15_000 });
  await page.waitForFunction(
    () =>
      document
        .querySelector(".quick-input-widget .quick-input-box input")
        ?.value.endsWith("/turn.captured.turn.json"),
    null,
    { timeout: 10_000 },
  );
  await input.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: 15_000 });
  const file = path.join(workspace, "turn.captured.turn.json");
  await page
    .locator('.tabs-container .tab[aria-label^="turn.captured.turn.json"]')
    .waitFor({ state: "visible", timeout: 20_000 });
  const captured = JSON.parse(await fs.readFile(file, "utf8"));
  assert.deepEqual(
    captured.pipeline.map((stage) => stage.kind),
    ["intent", "scripted", "role", "policy", "allowlist"],
  );
  assert.deepEqual(captured.pipeline[2].role_tools.support, ["search"]);
  assert.equal(captured.turn.role, "support");
  await page
    .locator(".notifications-toasts .notification-list-item-message", {
      hasText: /Captured the turn: 4 of 5 stages configured/,
    })
    .first()
    .waitFor({ state: "visible", timeout: 15_000 })
    .catch(async () => {
      assert.fail(`the capture says what it did; shown: ${(await notifications()).join(" | ")}`);
    });
  const said = await notifications();
  assert.match(said.join("\n"), /1 played back as recorded; the replay reproduces the trace/);

  // `palette-inspector run` replays it to the program's own trace.
  const cli = spawnSync(
    process.execPath,
    [path.join(root, "dist", "cli.js"), "run", file, "--json"],
    {
      encoding: "utf8",
    },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const replay = JSON.parse(cli.stdout).trace.map((r) => ({
    stage: r.stage,
    action: r.action,
    kept: r.kept,
    dropped: r.dropped,
    added: r.added,
    reinstated: r.reinstated,
    forced_choice: r.forced_choice,
    detail: r.detail,
  }));
  assert.deepEqual(replay, pythonTrace(root));
  log("captured fixture replays to the program's trace");
  await runCommand("Debug: Stop");
}
