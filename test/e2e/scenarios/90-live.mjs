// In real VS Code: Start Live Traces, the example agent sends its three turns through the real
// OpenTelemetry SDK, they appear in the Live group of the Selection Traces view, and one opens in
// the panel with what the model got; then Follow Log on a log that this script appends to and
// rotates, its traces listed once each as they are written.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { freePort, runExampleAgent } from "../harness.mjs";

export const name = "live: receive an agent's turns over OpenTelemetry, follow a growing log";

// 4318 may be taken on the machine running the tests (AI Toolkit listens there too).
const PORT = await freePort();
export const settings = { "paletteInspector.live.port": PORT };

const LOG = "logs/live.log";
/** One selection trace as a log line, in the log trace format. */
const traceLine = (id) =>
  `${JSON.stringify({
    ts: "2025-03-14T09:00:00Z",
    turn_id: id,
    trace: [
      {
        stage: "intent",
        action: "select",
        kept: ["search"],
        dropped: ["sql"],
        added: [],
        reinstated: [],
        forced_choice: null,
        detail: "",
      },
    ],
    tools: ["search"],
  })}\n`;

export async function prepare(workspace) {
  await fs.writeFile(path.join(workspace, LOG), `starting\n${traceLine("f-1")}`);
}

export async function run({
  page,
  workspace,
  root,
  hasCommand,
  runCommand,
  openFile,
  findWebviewFrame,
  shot,
  assert,
  log,
}) {
  // Start: the status bar says where it listens and counts the turns.
  assert.ok(
    await hasCommand("Palette Inspector: Start Live Traces", { timeout: 60_000 }),
    "the palette lists Start Live Traces",
  );
  await runCommand("Palette Inspector: Start Live Traces");
  const status = page.locator(".statusbar-item", { hasText: `OTLP :${PORT}` });
  await status
    .filter({ hasText: `OTLP :${PORT} · 0 turns` })
    .waitFor({ state: "visible", timeout: 30_000 });
  const tree = page.locator('.monaco-list[aria-label="Selection Traces"]');
  const liveGroup = tree.locator('.monaco-list-row[aria-level="1"]', {
    hasText: "Live (OpenTelemetry)",
  });
  await liveGroup
    .locator(".label-description", { hasText: `listening on 127.0.0.1:${PORT} · 0 turns` })
    .waitFor({ state: "visible", timeout: 10_000 });
  // Room for every row: fold the file tree above the view.
  const folders = page.locator('.pane-header[aria-label^="Explorer Section"]');
  if ((await folders.count()) > 0 && (await folders.getAttribute("aria-expanded")) === "true")
    await folders.click();
  await shot("e2e-live-listening.png");

  // The example agent, pointed at the receiver as its usage line says.
  await runExampleAgent(root, PORT);
  await status
    .filter({ hasText: `OTLP :${PORT} · 3 turns` })
    .waitFor({ state: "visible", timeout: 15_000 });
  await liveGroup
    .locator(".label-description", { hasText: "· 3 turns" })
    .waitFor({ state: "visible", timeout: 10_000 });
  // Each turn labelled like a logged trace, newest last.
  const turnRows = tree.locator('.monaco-list-row[aria-level="2"]');
  await turnRows.nth(2).waitFor({ state: "visible", timeout: 10_000 });
  const rows = await turnRows.evaluateAll((els) =>
    els.map((el) =>
      [".label-name", ".label-description"]
        .map((part) => el.querySelector(part)?.textContent.trim())
        .join(" | "),
    ),
  );
  assert.deepEqual(
    rows.map((row) => row.replace(/ \| .*$/, "")),
    ["#1 · turn-1 · 2 tools", "#2 · turn-2 · 2 tools", "#3 · turn-3 · 2 tools"],
  );
  await shot("e2e-live-turns.png");
  log("the agent's 3 turns are listed in the Live group");

  // Open turn-3: the model was offered only final_answer, lost send_email, and called it anyway.
  await turnRows.nth(2).click();
  await page
    .locator('.tabs-container .tab[aria-label^="Selection Trace: #3 Live (OpenTelemetry)"]')
    .waitFor({ state: "visible", timeout: 30_000 });
  const panel = await findWebviewFrame(".model-got .model-called", 60_000);
  const texts = (selector) =>
    panel.locator(selector).evaluateAll((els) => els.map((el) => el.textContent.trim()));
  assert.equal(await panel.locator(".model-got h2").innerText(), "What the model got");
  assert.match(
    await panel.locator(".model-got .model-call").innerText(),
    /^Model call: gpt-4o, span [0-9a-f]{16} OTel GenAI$/,
  );
  assert.deepEqual(
    await panel
      .locator(".model-got .model-offered > li")
      .evaluateAll((els) => els.map((el) => `${el.dataset.mark}: ${el.textContent.trim()}`)),
    ["both: final_answer", "lost: send_email lost after selection"],
  );
  assert.deepEqual(await texts(".model-got .model-called > li[data-unoffered='true']"), [
    "send_email called, but not offered to the model",
  ]);
  assert.deepEqual(await texts(".waterfall .stage-row .stage-name"), ["intent"]);
  await shot("e2e-live-model.png");
  log("turn-3's panel shows what the model got");

  await runCommand("Palette Inspector: Stop Live Traces");
  await status.waitFor({ state: "hidden", timeout: 10_000 });
  await liveGroup
    .locator(".label-description", { hasText: "stopped · 3 turns" })
    .waitFor({ state: "visible", timeout: 10_000 });

  // Follow a log: its trace now, one appended, one in the new file after a rotation, one more.
  await openFile(LOG);
  await runCommand("Palette Inspector: Follow Log");
  const followed = tree.locator('.monaco-list-row[aria-level="1"]', {
    hasText: `Following ${LOG}`,
  });
  const file = path.join(workspace, LOG);
  /** Waits until the followed log's entry counts `ids.length` traces and lists exactly `ids`. */
  const listed = async (ids) => {
    await followed
      .locator(".label-description", { hasText: `following · ${ids.length} turn` })
      .waitFor({ state: "visible", timeout: 15_000 });
    await page.waitForFunction(
      (expected) =>
        JSON.stringify(
          [
            ...document.querySelectorAll(
              '.monaco-list[aria-label="Selection Traces"] .monaco-list-row[aria-level="2"] .label-name',
            ),
          ]
            // "#N · id · …": the id is the label's second part.
            .map((el) => el.textContent.split(" · ")[1]?.trim() ?? "")
            .filter((id) => id.startsWith("f-")),
        ) === JSON.stringify(expected),
      ids,
      { timeout: 15_000 },
    );
  };
  await listed(["f-1"]);
  await fs.appendFile(file, traceLine("f-2"));
  await listed(["f-1", "f-2"]);
  // As logrotate and RotatingFileHandler do: the log renamed, a new one in its place.
  await fs.rename(file, `${file}.1`);
  await fs.writeFile(file, traceLine("f-3"));
  await listed(["f-1", "f-2", "f-3"]);
  await fs.appendFile(file, traceLine("f-4"));
  await listed(["f-1", "f-2", "f-3", "f-4"]);
  await shot("e2e-follow-log.png");
  log("the followed log's traces, once each, across a rotation");
}
