// In real VS Code, as a new user meets the extension: its own view in the activity bar, the
// view's welcome and the walkthrough, every button of both running its command; the badge live
// turns put on the view while it is hidden; and each of these in the light, dark and
// high-contrast themes at 1440 and 380 px (test-results/screenshots/themes/, `npm run
// screenshots:themes` takes them again).
import * as path from "node:path";
import { freePort, runExampleAgent } from "../harness.mjs";

export const name =
  "first contact: the view's welcome and the walkthrough, each button run; the badge; three themes";
export const timeoutMs = 240_000;

const PORT = await freePort();
export const settings = {
  "paletteInspector.live.port": PORT,
  "workbench.colorTheme": "Default Light Modern",
};

const THEMES = {
  light: "Default Light Modern",
  dark: "Default Dark Modern",
  "high-contrast": "Default High Contrast",
};
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 380, height: 900 };
const WALKTHROUGH = "palette-inspector.palette-inspector#paletteInspector.gettingStarted";
const WELCOME_BUTTONS = [
  "Find Selection Traces in Files",
  "Start Live Traces",
  "Follow Log",
  "Run a Fixture",
  "Open the Walkthrough",
];
/** Each step: its title, the heading of its page, and the buttons its text offers. */
const STEPS = [
  ["runFixture", "Run a fixture", ["Run a Fixture", "New Turn Fixture"]],
  ["waterfall", "Read the waterfall", []],
  ["whatIf", "Ask what if", []],
  ["logs", "Find traces in your logs", ["Find Selection Traces in Files"]],
  ["live", "Watch a live agent", ["Start Live Traces", "Follow Log"]],
  ["assistants", "Ask an assistant", []],
];

export async function run(ctx) {
  const { page, workspace, root, runCommand, findWebviewFrame, setColorTheme, shot, assert, log } =
    ctx;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const quickInput = page.locator(".quick-input-widget");
  const quickTitle = quickInput.locator(".quick-input-title");
  const sidebar = page.locator(".part.sidebar");
  const welcome = sidebar.locator(".welcome-view-content");
  const welcomeButton = (label) =>
    welcome.locator(".monaco-button", { hasText: new RegExp(`^${label}$`) });
  const tree = page.locator('.monaco-list[aria-label="Selection Traces"]');
  const icon = page.locator('.activitybar .action-item a[aria-label^="Selection Traces"]');
  const badge = page.locator(
    '.activitybar .action-item:has(a[aria-label^="Selection Traces"]) .badge-content',
  );
  const status = page.locator(".statusbar-item", { hasText: `OTLP :${PORT}` });
  const walkthroughTab = page.locator('.tabs-container .tab[aria-label^="Walkthrough: "]');
  const step = (id) =>
    page.locator(`button.getting-started-step[data-step-id="${WALKTHROUGH}#${id}"]`);

  /** Waits for a picker or dialog titled `title` (a quick input), then closes it unanswered. */
  async function opensAndClose(title, what) {
    await quickTitle
      .filter({ hasText: title })
      .waitFor({ state: "visible", timeout: 20_000 })
      .catch(() => assert.fail(`${what} opened no "${title}"`));
    await page.keyboard.press("Escape");
    await quickInput.waitFor({ state: "hidden", timeout: 5_000 });
  }

  /** Picks A Folder of Logs… in Find Selection Traces' picker, then `folder` in the open dialog. */
  async function findTracesIn(folder) {
    await quickTitle
      .filter({ hasText: "Find Selection Traces in Files" })
      .waitFor({ state: "visible", timeout: 20_000 });
    await quickInput.locator(".monaco-list-row", { hasText: "A Folder of Logs" }).click();
    const input = quickInput.locator(".quick-input-box input");
    // The open dialog replaces the picker, starting in the workspace.
    await page.waitForFunction(
      (start) => document.querySelector(".quick-input-box input")?.value === start,
      `${workspace}/`,
      { timeout: 10_000 },
    );
    await input.fill(`${folder}/`);
    // OK takes the typed folder once the dialog has read it, which a busy host delays.
    const ok = quickInput.locator(".monaco-button", { hasText: /^OK$/ });
    for (let attempt = 0; (await quickInput.isVisible()) && attempt < 10; attempt++) {
      await ok.click({ timeout: 5_000 }).catch(() => {});
      await quickInput.waitFor({ state: "hidden", timeout: 2_000 }).catch(() => {});
    }
    assert.equal(await quickInput.isVisible(), false, `the open dialog took ${folder}`);
  }

  /**
   * Selects a step of the walkthrough. The page takes the focus a moment after, which would
   * close a picker that one of the step's buttons had opened by then.
   */
  async function selectStep(id) {
    await step(id).click();
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.getAttribute("aria-expanded") === "true",
      `button.getting-started-step[data-step-id="${WALKTHROUGH}#${id}"]`,
      { timeout: 10_000 },
    );
    await sleep(500);
  }

  /** The page of the walkthrough's selected step: its text, once it is drawn. */
  async function stepPage(heading) {
    const frame = await findWebviewFrame(`h1:text-is("${heading}")`, 20_000);
    const text = (await frame.locator("body").innerText()).trim();
    assert.ok(text.length > heading.length + 40, `the page of "${heading}" has text: ${text}`);
    return text;
  }

  let sideBarWidth; // as VS Code first lays it out at 1440 px
  /** Back to 1440 px, the side bar as wide as it first was (a narrow window shrank it). */
  async function wide() {
    await page.setViewportSize(WIDE);
    await sleep(300);
    const box = await sidebar.boundingBox();
    if (!box || Math.abs(box.width - sideBarWidth) < 4) return;
    // The sash on the side bar's edge.
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width, y);
    await page.mouse.down();
    await page.mouse.move(box.x + sideBarWidth, y, { steps: 5 });
    await page.mouse.up();
    await sleep(300);
  }

  /** Shots of what is on screen now, at 1440 and 380 px; `narrow` takes more at 380 px. */
  async function shots(what, theme, narrow) {
    await wide();
    await page.mouse.move(WIDE.width / 2, 8); // off every button: no hover in the picture
    await shot(`themes/${what}-${theme}-1440.png`);
    await page.setViewportSize(NARROW);
    await sleep(600);
    await shot(`themes/${what}-${theme}-380.png`);
    await narrow?.(theme);
    await wide();
  }

  /**
   * The same shots in each theme of `order`, the first the one on screen. `focus` first moves
   * the keyboard off the walkthrough, where the Escape that opening the theme picker presses
   * would go back to VS Code's own Welcome page.
   */
  async function inEachTheme(what, order, focus, narrow) {
    for (const [i, theme] of order.entries()) {
      if (i > 0) {
        await focus?.focus();
        await setColorTheme(THEMES[theme]);
      }
      await shots(what, theme, narrow);
    }
  }

  await page.setViewportSize(WIDE);
  sideBarWidth = (await sidebar.boundingBox())?.width ?? 300;
  // Its own place in the activity bar: the icon, titled as the view it holds.
  await icon.waitFor({ state: "visible", timeout: 30_000 });
  await icon.click();
  const title = sidebar.locator(".composite.title h2");
  await title.waitFor({ state: "visible", timeout: 10_000 });
  assert.equal((await title.innerText()).toLowerCase(), "selection traces");
  assert.ok(
    await title.evaluate((h) => h.scrollWidth <= h.clientWidth),
    "the side bar's title is not cut short at the default width",
  );

  // The welcome: its two sentences and its five buttons.
  await welcome.waitFor({ state: "visible", timeout: 30_000 });
  assert.deepEqual(
    await welcome.locator("p").evaluateAll((ps) => ps.map((p) => p.textContent.trim())),
    [
      "Selection traces from your logs and your running agent are listed here.",
      "Or run a turn fixture (*.turn.json) to see its waterfall.",
    ],
  );
  assert.deepEqual(
    await welcome
      .locator(".monaco-button")
      .evaluateAll((bs) => bs.map((b) => b.textContent.trim())),
    WELCOME_BUTTONS,
  );

  // Open the Walkthrough: the extension's Get Started page, its six steps, none cut short.
  await welcomeButton("Open the Walkthrough").click();
  await walkthroughTab.waitFor({ state: "visible", timeout: 20_000 });
  const category = page.locator(".gettingStartedContainer .getting-started-category").first();
  assert.equal(
    (
      await page.locator(`.category-title[x-category-title-for="${WALKTHROUGH}"]`).innerText()
    ).trim(),
    "Get started with Palette Inspector",
  );
  const description = page.locator(
    `.category-description[x-category-description-for="${WALKTHROUGH}"]`,
  );
  assert.equal(
    (await description.innerText()).trim(),
    "See which stage kept, dropped or forced each tool, and ask what if.",
  );
  assert.ok(
    await description.evaluate((d) => d.scrollHeight <= d.clientHeight + 1),
    "the walkthrough's description is whole, not clamped",
  );
  assert.ok(await category.count(), "the walkthrough is shown");
  assert.deepEqual(
    await page
      .locator("button.getting-started-step .step-title")
      .evaluateAll((ts) => ts.map((t) => t.textContent.trim())),
    STEPS.map(([, heading]) => heading),
  );
  await stepPage("Run a fixture");
  // The welcome beside the walkthrough, in each theme; at 380 px the walkthrough alone (the
  // side bar closed, as a narrow window needs).
  await inEachTheme(
    "welcome",
    ["light", "dark", "high-contrast"],
    welcomeButton("Follow Log"),
    async (theme) => {
      await page.keyboard.press("Control+B");
      await sleep(600);
      await shot(`themes/walkthrough-${theme}-380.png`);
      await page.keyboard.press("Control+B");
      await sleep(300);
    },
  );
  assert.ok(await walkthroughTab.isVisible(), "the walkthrough is still open");
  log("welcome and walkthrough shot in three themes");

  // Every step's page is drawn, and every button of a step runs its command.
  for (const [id, heading, buttons] of STEPS) {
    await selectStep(id);
    await stepPage(heading);
    assert.deepEqual(
      await step(id)
        .locator(".step-description-container .monaco-button")
        .evaluateAll((bs) => bs.map((b) => b.textContent.trim())),
      buttons,
      `the buttons of "${heading}"`,
    );
  }
  const stepButton = (id, label) =>
    step(id).locator(".step-description-container .monaco-button", { hasText: label });
  await selectStep("runFixture");
  await stepButton("runFixture", "Run a Fixture").click();
  await opensAndClose("Run Selection on Fixture", "the walkthrough's Run a Fixture");
  await page
    .locator(
      `button.getting-started-step[data-step-id="${WALKTHROUGH}#runFixture"][aria-checked="true"]`,
    )
    .waitFor({ state: "attached", timeout: 10_000 })
    .catch(() => assert.fail("running a fixture checks the walkthrough's first step"));
  await selectStep("runFixture");
  await stepButton("runFixture", "New Turn Fixture").click();
  await opensAndClose("New Turn Fixture", "the walkthrough's New Turn Fixture");
  await selectStep("logs");
  await stepButton("logs", "Find Selection Traces in Files").click();
  await opensAndClose("Find Selection Traces in Files", "the walkthrough's Find Selection Traces");
  await selectStep("live");
  await stepButton("live", "Follow Log").click();
  await opensAndClose("Follow Log", "the walkthrough's Follow Log");
  log("each step's page drawn, its buttons run their commands");

  // The welcome's buttons, each running its command.
  await welcomeButton("Follow Log").click();
  await opensAndClose("Follow Log", "the welcome's Follow Log");
  await welcomeButton("Run a Fixture").click();
  await quickTitle
    .filter({ hasText: "Run Selection on Fixture" })
    .waitFor({ state: "visible", timeout: 20_000 });
  await quickInput.locator(".quick-input-box input").fill("weather-forecast.turn.json");
  await quickInput
    .locator(".monaco-list-row", { hasText: /^\s*weather-forecast\.turn\.json/ })
    .first()
    .click();
  const panel = await findWebviewFrame(".waterfall .stage-row", 60_000);
  assert.ok((await panel.locator(".waterfall .stage-row").count()) > 1, "the fixture's waterfall");
  // Find Selection Traces in Files takes a folder; the set is listed, then removed again.
  await welcomeButton("Find Selection Traces in Files").click();
  await findTracesIn(path.join(workspace, "logs"));
  const logsSet = tree.locator('.monaco-list-row[aria-level="1"]', { hasText: "logs" });
  await logsSet
    .locator(".label-description", { hasText: /^\d+ traces in \d+ files$/ })
    .waitFor({ state: "visible", timeout: 30_000 });
  await logsSet.hover();
  await logsSet.locator('.action-label[aria-label="Remove from Selection Traces"]').click();
  await welcome.waitFor({ state: "visible", timeout: 10_000 });
  await welcomeButton("Start Live Traces").click();
  await status
    .filter({ hasText: `OTLP :${PORT} · 0 turns` })
    .waitFor({ state: "visible", timeout: 30_000 });
  log("the welcome's buttons run their commands");

  // Live turns while the view is hidden: a badge on its icon, in each theme.
  await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').click();
  await runExampleAgent(root, PORT);
  await badge.filter({ hasText: /^3$/ }).waitFor({ state: "visible", timeout: 15_000 });
  assert.equal(
    await badge.locator("xpath=..").getAttribute("aria-label"),
    "Selection Traces - 3 new live turns",
  );
  const colours = await badge.evaluate((b) => {
    const style = getComputedStyle(b);
    return [style.color, style.backgroundColor];
  });
  assert.notEqual(colours[0], colours[1], "the badge's number stands out from its background");
  await inEachTheme("badge", ["high-contrast", "dark", "light"]);
  log("the badge counts the 3 turns, shot in three themes");

  // The view shown again: the badge goes, each turn listed with #N first and its own label.
  await page.locator('.activitybar .action-item:has(a[aria-label^="Selection Traces"])').click();
  await badge.waitFor({ state: "hidden", timeout: 10_000 });
  const turns = tree.locator('.monaco-list-row[aria-level="2"]');
  await turns.nth(2).waitFor({ state: "visible", timeout: 10_000 });
  // Shown "#N · turn-N · …", read "Trace #N, turn turn-N, …": each turn its own.
  const labels = await turns.evaluateAll((rows) =>
    rows.map((r) => [r.querySelector(".label-name").textContent, r.getAttribute("aria-label")]),
  );
  assert.deepEqual(
    labels.map(([shown, read]) => [
      shown.match(/^#\d+ /)?.[0],
      read.match(/^Trace #\d+, turn /)?.[0],
    ]),
    [1, 2, 3].map((n) => [`#${n} `, `Trace #${n}, turn `]),
    JSON.stringify(labels),
  );
  assert.equal(new Set(labels.map(([, read]) => read)).size, 3, JSON.stringify(labels));

  // The walkthrough's Start Live Traces, after a stop, and its Find Selection Traces on a folder.
  await runCommand("Palette Inspector: Stop Live Traces");
  await status.waitFor({ state: "hidden", timeout: 10_000 });
  await walkthroughTab.click();
  await selectStep("live");
  await stepButton("live", "Start Live Traces").click();
  await status.waitFor({ state: "visible", timeout: 30_000 });
  await selectStep("logs");
  await stepButton("logs", "Find Selection Traces in Files").click();
  await findTracesIn(path.join(workspace, "logs"));
  await logsSet
    .locator(".label-description", { hasText: /^\d+ traces in \d+ files$/ })
    .waitFor({ state: "visible", timeout: 30_000 });
  assert.ok(
    await page
      .locator(
        `button.getting-started-step[data-step-id="${WALKTHROUGH}#live"][aria-checked="true"]`,
      )
      .count(),
    "starting live traces checks the walkthrough's live step",
  );
  // The view with live turns and a set of logs, in each theme.
  await inEachTheme("view", ["light", "dark", "high-contrast"], tree);
  log("the walkthrough's live and logs buttons run their commands; the view shot in three themes");
}
