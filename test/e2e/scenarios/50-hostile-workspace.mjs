// In real VS Code, Restricted Mode: a workspace holding a fixture and a log whose tool and
// stage names are command links, and a 150 MB unclosed fixture. Running the fixture, Update
// Expectation and Find Selection Traces show no command link in any notification, progress
// title or modal, the oversized fixture is reported in the Problems panel, and the extension
// host stays up.
import * as fs from "node:fs/promises";
import * as path from "node:path";

export const name = "hostile workspace in Restricted Mode: no command links, the host stays up";
export const trust = false;
export const timeoutMs = 240_000;
export const settings = {
  // Restricted Mode without the startup question, as after choosing "Don't Trust".
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "never",
};

const LINK = "[x](command:workbench.action.openSettings?%22PWNED%22)";
const LINK_SYNTAX = /\[[^\]]*\]\(/;
const MB = 1024 * 1024;

export async function prepare(workspace) {
  const write = (file, value) =>
    fs.writeFile(path.join(workspace, file), JSON.stringify(value, null, 2));
  await write("hostile.turn.json", {
    description: LINK,
    offered: [LINK, "final_answer"],
    pipeline: [{ kind: "lazy", name: LINK, allowed_names: [LINK, "final_answer"] }],
    expect: { names: ["final_answer"] },
  });
  await write("invalid.turn.json", { offered: [LINK], pipeline: [{ kind: LINK }] });
  const record = {
    stage: LINK,
    action: "abstain",
    kept: ["final_answer"],
    dropped: [LINK],
    added: [],
    reinstated: [],
    forced_choice: null,
    detail: LINK,
  };
  await fs.writeFile(
    path.join(workspace, "logs", "hostile.log"),
    `${JSON.stringify({ offered: [LINK, "final_answer"], trace: [record] })}\n` +
      `${JSON.stringify({ trace: [{ stage: LINK, action: LINK }] })}\n`,
  );
  // 150 MB that never closes its first string: a fixture no parser may hold whole.
  await fs.mkdir(path.join(workspace, "big"));
  const handle = await fs.open(path.join(workspace, "big", "oversized.turn.json"), "w");
  try {
    await handle.write('{"description": "');
    const chunk = Buffer.alloc(MB, "x");
    for (let i = 0; i < 150; i++) await handle.write(chunk);
  } finally {
    await handle.close();
  }
}

export async function run({ page, openFile, runCommand, findWebviewFrame, assert, log }) {
  const seen = [];
  const messages = page.locator(
    ".notifications-toasts .notification-list-item-message, .notifications-center .notification-list-item-message, .monaco-dialog-box .dialog-message-text, .monaco-dialog-box .dialog-message-detail",
  );
  /** Every notification and dialog now on screen: no link syntax, no rendered command link. */
  const check = async (what) => {
    const texts = await messages.allInnerTexts();
    const links = await page
      .locator(".notifications-toasts a, .notifications-center a, .monaco-dialog-box a")
      .evaluateAll((anchors) =>
        anchors.map((a) => `${a.getAttribute("href") ?? ""} ${a.getAttribute("data-href") ?? ""}`),
      );
    log(`${what}: ${texts.join(" | ")}`);
    for (const text of texts) assert.doesNotMatch(text, LINK_SYNTAX, `${what}: ${text}`);
    assert.deepEqual(
      links.filter((href) => href.includes("command:")),
      [],
      `${what}: a command link is rendered`,
    );
    seen.push(...texts);
    return texts;
  };
  /** Waits for a notification or dialog matching `pattern`, then checks everything on screen. */
  const waitForText = async (what, pattern) => {
    await messages
      .filter({ hasText: pattern })
      .first()
      .waitFor({ state: "attached", timeout: 30_000 })
      .catch(async () => {
        throw new Error(
          `${what}: nothing on screen matches ${pattern}: ${(await check(what)).join(" | ")}`,
        );
      });
    await check(what);
  };

  // The status bar says so in Restricted Mode.
  await page
    .locator(".statusbar-item", { hasText: "Restricted Mode" })
    .first()
    .waitFor({ state: "visible", timeout: 30_000 });

  // Run the hostile fixture: the panel shows its waterfall, names as text.
  await openFile("hostile.turn.json");
  await runCommand("Palette Inspector: Run Selection on Fixture");
  const panel = await findWebviewFrame(".waterfall .stage-row", 90_000);
  assert.equal(await panel.locator(".waterfall .stage-row").count(), 1);
  assert.equal(await panel.locator('a[href^="command:"]').count(), 0);
  await check("after running the fixture");

  // Update Expectation: the modal names the fixture and lists the hostile names, inert.
  await openFile("hostile.turn.json");
  await runCommand("Palette Inspector: Update Expectation from Current Result");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor({ state: "visible", timeout: 30_000 });
  await check("the Update Expectation dialog");
  assert.match(await dialog.innerText(), /［x］\(command:/);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden", timeout: 10_000 });

  // Update Expectation on an invalid fixture: fixed wording, the problem in the log.
  await openFile("invalid.turn.json");
  await runCommand("Palette Inspector: Update Expectation from Current Result");
  await waitForText("Update Expectation on an invalid fixture", /invalid\.turn\.json is invalid/);

  // Find Selection Traces in a hostile log: progress and result.
  await openFile("logs/hostile.log");
  await runCommand("Palette Inspector: Find Selection Traces in Files");
  await waitForText(
    "Find Selection Traces",
    /1 selection trace in logs\/hostile\.log, 1 problem\b/,
  );

  // The oversized fixture is in the Problems panel, from its size alone (it is never read).
  await page.keyboard.press("Control+Shift+M");
  await page
    .locator(".markers-panel .monaco-list-row", {
      hasText: /fixture is 15\d MB; the limit is 10 MB/,
    })
    .first()
    .waitFor({ state: "visible", timeout: 30_000 });
  const problemRows = await page.locator(".markers-panel .monaco-list-row").allInnerTexts();
  assert.ok(
    problemRows.some((row) => row.includes("oversized.turn.json")),
    problemRows.join(" | "),
  );

  // The host is still up: a fixture runs, and nothing says the extension host died.
  await openFile("weather-forecast.turn.json");
  await runCommand("Palette Inspector: Run Selection on Fixture");
  await findWebviewFrame('.header .file-name:text-is("weather-forecast.turn.json")', 60_000);
  const all = await check("at the end");
  assert.ok(
    ![...seen, ...all].some((t) => /extension host .*(terminated|crashed|unresponsive)/i.test(t)),
    "the extension host did not stop",
  );
}
