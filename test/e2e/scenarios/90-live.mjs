// In real VS Code: Start Live Traces, the example agent sends its turns through the real
// OpenTelemetry SDK, they appear in the Live group of the Selection Traces view, and one opens
// in the panel; then Follow Log on a log that this script appends to and rotates.
import { execFile } from "node:child_process";
import * as fs from "node:fs/promises";
import { createServer } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";

export const name = "live: receive an agent's turns over OpenTelemetry, follow a growing log";

/** A port nothing holds now: 4318 may be taken on the machine running the tests. */
const PORT = await new Promise((resolve) => {
  const server = createServer();
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

export const settings = { "paletteInspector.live.port": PORT };
export const timeoutMs = 180_000;

const LOG = "logs/live.log";
const line = (id) =>
  `${JSON.stringify({ ts: "2025-03-14T09:00:00Z", turn_id: id, trace: [{ stage: "intent", action: "select", kept: ["search"], dropped: ["sql"], added: [], reinstated: [], forced_choice: null, detail: "" }], tools: ["search"] })}\n`;

export async function prepare(workspace) {
  await fs.writeFile(path.join(workspace, LOG), `starting\n${line("f-1")}`);
}

export async function run({
  hasCommand,
  page,
  workspace,
  root,
  openFile,
  runCommand,
  findWebviewFrame,
  assert,
  log,
}) {
  // The palette lists the extension's commands once the extension host has read its manifest.
  assert.ok(await hasCommand("Palette Inspector: Start Live Traces", { timeout: 60_000 }));
  await runCommand("Palette Inspector: Start Live Traces");
  const status = page.locator(".statusbar-item", { hasText: `OTLP :${PORT}` });
  await status.waitFor({ state: "visible", timeout: 30_000 });
  assert.match(await status.innerText(), new RegExp(`OTLP :${PORT} · 0 turns`));

  await promisify(execFile)(
    process.execPath,
    ["examples/otel/agent.mjs", "--url", `http://127.0.0.1:${PORT}/v1/traces`],
    { cwd: root, timeout: 60_000 },
  );
  await page
    .locator(".statusbar-item", { hasText: `OTLP :${PORT} · 3 turns` })
    .waitFor({ state: "visible", timeout: 30_000 });
  log("the status bar counts 3 turns");

  const tree = page.locator('.monaco-list[aria-label="Selection Traces"]');
  const folders = page.locator('.pane-header[aria-label^="Explorer Section"]');
  if ((await folders.getAttribute("aria-expanded")) === "true") await folders.click();
  const group = tree.locator(".monaco-list-row", { hasText: "Live (OpenTelemetry)" });
  await group.waitFor({ state: "visible", timeout: 30_000 });
  const turns = tree.locator('.monaco-list-row[aria-level="2"]');
  await turns.nth(2).waitFor({ state: "visible", timeout: 30_000 });
  const labels = await turns.locator(".label-name").allInnerTexts();
  assert.deepEqual(
    labels.map((text) => text.split(" · ")[0].trim()),
    ["turn-1", "turn-2", "turn-3"],
  );

  await turns.nth(0).click();
  const panel = await findWebviewFrame(".waterfall .stage-row", 60_000);
  assert.ok(
    (await panel.locator(".waterfall .stage-row").count()) > 0,
    "the turn's waterfall shows",
  );
  assert.ok(
    await page.locator('.tabs-container .tab[aria-label^="Selection Trace: #1 Live"]').isVisible(),
  );

  await runCommand("Palette Inspector: Stop Live Traces");
  await status.waitFor({ state: "hidden", timeout: 10_000 });

  // Follow a log: its trace now, one appended, and one in the new file after a rotation.
  await openFile(LOG);
  await runCommand("Palette Inspector: Follow Log");
  const followed = tree.locator(".monaco-list-row", { hasText: "Following" });
  await followed.waitFor({ state: "visible", timeout: 30_000 });
  const file = path.join(workspace, LOG);
  const followedTurns = async () =>
    (await tree.locator('.monaco-list-row[aria-level="2"] .label-name').allInnerTexts()).map(
      (text) => text.split(" · ")[0].trim(),
    );
  const until = async (expected) => {
    for (let tries = 0; tries < 100; tries++) {
      const now = await followedTurns();
      if (JSON.stringify(now.filter((id) => id.startsWith("f-"))) === JSON.stringify(expected))
        return;
      await page.waitForTimeout(200);
    }
    assert.deepEqual(await followedTurns(), expected);
  };
  await until(["f-1"]);
  await fs.appendFile(file, line("f-2"));
  await until(["f-1", "f-2"]);
  await fs.rename(file, `${file}.1`);
  await fs.writeFile(file, line("f-3"));
  await until(["f-1", "f-2", "f-3"]);
  log("the followed log's traces, across a rotation");
}
