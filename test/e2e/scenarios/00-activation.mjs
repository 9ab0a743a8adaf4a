// The harness itself: the workbench loads, the packaged extension is installed and its
// command is in the palette. Every later scenario relies on this.
export const name = "workbench loads with the extension installed";

const EXTENSION_ID = "palette-inspector.palette-inspector";
const RUN_FIXTURE = "Palette Inspector: Run Selection on Fixture";

export async function run({ page, runCommand, hasCommand, screenshot, artifactsDir, assert }) {
  assert.ok(await page.locator(".monaco-workbench").isVisible(), "workbench is shown");

  await runCommand("View: Show Extensions");
  await page.keyboard.insertText("@installed palette");
  const row = page.locator(
    `.extensions-viewlet .monaco-list-row[data-extension-id="${EXTENSION_ID}"]`,
  );
  // Listing installed extensions waits for the extension host, which is slow on 2 cores.
  await row.waitFor({ state: "visible", timeout: 60_000 });
  assert.match(await row.locator(".name").innerText(), /Palette Inspector/);
  // examples/ holds *.turn.json, so `workspaceContains` activates it; the row then shows the activation time.
  await row
    .locator(".activation-status", { hasText: /\d+\s*ms/ })
    .waitFor({ state: "visible", timeout: 30_000 });

  assert.ok(await hasCommand(RUN_FIXTURE), `the palette lists "${RUN_FIXTURE}"`);
  await screenshot(`${artifactsDir}/extensions.png`);
}
