// Issue 8 finding 2 in real VS Code, Restricted Mode: a 150 MB unclosed *.turn.json appears in
// the workspace. Discovery refuses it by its size without reading it, the Problems panel says so
// at line 1, and the extension host stays up (another fixture still runs).
import { open } from "node:fs/promises";
import * as path from "node:path";

export const name = "A 150 MB unclosed fixture is reported in Problems; the host stays up";
export const trust = false;

const MESSAGE = "fixture is 150 MB; the limit is 10 MB";

export async function run({
  page,
  workspace,
  openFile,
  runCommand,
  findWebviewFrame,
  assert,
  log,
}) {
  // Sparse beyond its first bytes: the size is real, the disk cost is not.
  const file = await open(path.join(workspace, "huge.turn.json"), "w");
  await file.write("[".repeat(1024 * 1024));
  await file.truncate(150 * 1024 * 1024);
  await file.close();

  // Restricted Mode: VS Code first asks whether to trust the folder; the answer is no.
  const distrust = page.getByRole("button", { name: "No, I don't trust the authors" });
  await distrust.click({ timeout: 60_000 });
  await page.locator(".statusbar", { hasText: "Restricted Mode" }).waitFor({ timeout: 10_000 });

  await page
    .locator('.activitybar .action-item a[aria-label^="Testing"]')
    .click({ timeout: 60_000 });
  await page.keyboard.press("Control+Shift+M");
  const rows = page.locator(".markers-panel .monaco-list-row");
  const deadline = Date.now() + 60_000;
  let seen = [];
  while (Date.now() < deadline) {
    seen = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, " "));
    if (seen.some((m) => m.includes(MESSAGE))) break;
    await page.waitForTimeout(250);
  }
  log(`Problems: ${seen.join(" | ")}`);
  const row = seen.find((m) => m.includes(MESSAGE));
  assert.ok(row, `the size problem is in Problems; it shows: ${seen.join(" | ")}`);
  assert.match(row, /\[Ln 1, Col 1\]$/);

  // The host still answers: another fixture runs and its waterfall shows.
  await page.keyboard.press("Escape");
  await openFile("weather-forecast.turn.json");
  const t0 = Date.now();
  await runCommand("Palette Inspector: Run Selection on Fixture");
  const frame = await findWebviewFrame(".waterfall .stage-row", 60_000);
  assert.ok((await frame.locator(".waterfall .stage-row").count()) > 0);
  log(`a fixture still runs beside the huge one: waterfall in ${Date.now() - t0} ms`);
}
