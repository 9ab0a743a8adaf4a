// The statistics view split at a time picked on its timeline (by keyboard and by pointer), and the
// comparison's timeline with both periods named; screenshots in every theme at 380 and 1440 px.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { main } from "../../src/cli/main.js";
import { test } from "./harness.js";
import { screenshot, THEMES, type PageGlobals } from "./page.js";
import {
  BEFORE_AFTER,
  beforeAfterStats,
  hostSplit,
  openStats,
  postedCount,
  sendStats,
  waitForStatsPosted,
} from "./stats-data.js";

/** `stats examples/before-after --split-at AT --json`, run in this process as a user would run it. */
async function cliSplit(at: string): Promise<{ changes: { name: string; points: number }[] }> {
  let stdout = "";
  const code = await main(["stats", BEFORE_AFTER, "--split-at", at, "--json"], {
    stdout: (text) => (stdout += text),
    stderr: () => {},
    color: false,
    cwd: process.cwd(),
  });
  assert.equal(code, 0);
  return JSON.parse(stdout) as { changes: { name: string; points: number }[] };
}

const valueText = (page: Page) =>
  page.locator(".split-picker").getAttribute("aria-valuetext") as Promise<string>;

async function openPicker(page: Page): Promise<void> {
  await page.locator('[data-action="split"]').click();
  await page.waitForSelector(".split-picker");
}

/** Moves the split, by keyboard, to midnight between the two days: the first split is an hour in. */
async function pickMidnight(page: Page): Promise<void> {
  await page.keyboard.press("Home");
  for (let i = 0; i < 14; i++) await page.keyboard.press("ArrowRight");
}

/** Answers the page's split request with the host's comparison, and waits for the changes. */
async function answerSplit(page: Page, after: number): Promise<string> {
  const asked = await waitForStatsPosted(page, "split", after);
  await sendStats(page, {
    type: "comparison",
    requestId: asked.requestId,
    view: await hostSplit(asked.at),
  });
  await page.waitForSelector(".changes tbody tr");
  return asked.at;
}

test("stats split: picked by keyboard, arrows move the split, Escape cancels, Enter compares as `stats --split-at` does", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await beforeAfterStats() });
  await page.waitForSelector('[data-action="split"]');
  await page.locator('[data-action="split"]').focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector(".split-picker");
  assert.equal(
    await page.evaluate(() => document.activeElement?.className),
    "split-picker",
    "the split takes the focus",
  );
  assert.equal(await page.locator(".split-picker").getAttribute("role"), "slider");
  const first = await valueText(page);
  await page.keyboard.press("ArrowRight");
  assert.notEqual(await valueText(page), first, "an arrow moves the split");
  // Escape leaves without asking anything; the focus goes back to the button.
  const before = await postedCount(page);
  await page.keyboard.press("Escape");
  await page.waitForSelector(".split-picker", { state: "detached" });
  assert.equal(
    await page.evaluate(() => document.activeElement?.getAttribute("data-action")),
    "split",
  );
  assert.equal(await postedCount(page), before);
  // Home is the first boundary: after the set's first hour, never before its first trace.
  await page.keyboard.press("Enter");
  await page.waitForSelector(".split-picker");
  await page.keyboard.press("Home");
  assert.equal(await valueText(page), "2025-03-10 10:00 UTC: 4 traces before, 76 from it");
  await page.keyboard.press("ArrowLeft");
  assert.match(await valueText(page), /^2025-03-10 10:00 UTC/, "no split before the first one");
  await page.keyboard.press("End");
  assert.equal(await valueText(page), "2025-03-12 18:00 UTC: 76 traces before, 4 from it");
  await page.keyboard.press("ArrowRight");
  assert.match(await valueText(page), /^2025-03-12 18:00 UTC/, "no split after the last one");
  await pickMidnight(page);
  assert.equal(await valueText(page), "2025-03-11 00:00 UTC: 40 traces before, 40 from it");
  assert.match(
    await page.locator("#split-help").innerText(),
    /Split at 2025-03-11 00:00 UTC: 40 traces before \(OLD\), 40 from it \(NEW\)\./,
  );
  await screenshot(page, "stats-split-picking.png");
  const asking = await postedCount(page);
  await page.keyboard.press("Enter");
  const at = await answerSplit(page, asking);
  assert.equal(at, "2025-03-11 00:00");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "comparison-title");
  // The changes on the page are the CLI's, in its order, with its points.
  const cli = await cliSplit(at);
  const rows = await page
    .locator(".changes tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute("data-tool"), (tr.children[4] as HTMLElement).innerText]),
    );
  assert.deepEqual(
    rows.map(([name]) => name),
    cli.changes.map((c) => c.name),
  );
  assert.equal(rows[0]![1], "−80.0 pts");
  assert.equal(cli.changes[0]!.points, -80);
  assert.match(
    await page.locator(".comparison > p").first().innerText(),
    /^This set split at 2025-03-11 00:00 UTC: before it OLD \(40 traces\), from it NEW \(40 traces\)\.$/,
  );
  await page.close();
});

test("stats split: picked by pointer, the split follows it and a click compares at the time under it", async (browser) => {
  const page = await openStats(browser, { width: 1440 });
  await sendStats(page, { type: "stats", view: await beforeAfterStats() });
  await openPicker(page);
  const box = (await page.locator(".split-picker").boundingBox())!;
  const x = (fraction: number) => box.x + box.width * fraction;
  // The plot spans 60 to 564 of the chart's 640 units; 58 one-hour buckets from 10 March 09:00.
  const at = (hours: number) => x((60 + (504 * hours) / 58) / 640);
  await page.mouse.move(at(15), box.y + box.height / 2);
  assert.match(await valueText(page), /^2025-03-11 00:00 UTC: 40 traces before, 40 from it$/);
  await page.mouse.move(at(30), box.y + box.height / 2);
  assert.match(await valueText(page), /^2025-03-11 15:00 UTC/);
  // Far left of the chart is still no split before the first trace.
  await page.mouse.move(x(0.01), box.y + box.height / 2);
  assert.match(await valueText(page), /^2025-03-10 10:00 UTC/);
  const asking = await postedCount(page);
  await page.mouse.click(at(15), box.y + box.height / 2);
  assert.equal(await answerSplit(page, asking), "2025-03-11 00:00");
  await page.close();
});

test("stats split: the comparison's timeline names both periods and the split, in words and on the chart", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await beforeAfterStats() });
  await openPicker(page);
  // While picking, the main chart already shows which side is which.
  assert.deepEqual(await page.locator(".split-picker .period-label").allTextContents(), [
    "before (OLD)",
    "after (NEW)",
  ]);
  await pickMidnight(page);
  const asking = await postedCount(page);
  await page.locator('[data-action="split-set"]').click();
  await answerSplit(page, asking);
  const periods = page.locator(".comparison .periods");
  assert.deepEqual(
    (await periods.locator(".period-text").allInnerTexts()).map((t) => t.replace(/\s+/g, " ")),
    [
      "Before (OLD): 2025-03-10 09:00 to 2025-03-10 18:45 UTC",
      "After (NEW): 2025-03-12 09:00 to 2025-03-12 18:45 UTC",
    ],
  );
  assert.equal(await periods.locator(".split-label").textContent(), "split 2025-03-11 00:00");
  assert.deepEqual(await periods.locator(".period-label").allTextContents(), [
    "before (OLD)",
    "after (NEW)",
  ]);
  assert.equal(await periods.locator(".split-line").count(), 1);
  assert.match(
    (await periods.locator("svg title").first().textContent())!,
    /Before \(OLD\) from 2025-03-10 09:00 to 2025-03-10 18:45 UTC; after \(NEW\) from 2025-03-12 09:00 to 2025-03-12 18:45 UTC; split at 2025-03-11 00:00 UTC$/,
  );
  assert.deepEqual(await periods.locator("figcaption .key").allInnerTexts(), [
    "final palette size (mean)",
    "forced-choice failures",
    "before (OLD)",
    "after (NEW)",
  ]);
  // OLD's band lies left of NEW's, and neither runs past the plot.
  const bands = await periods
    .locator("rect.period")
    .evaluateAll((rects) =>
      rects.map((r) => [Number(r.getAttribute("x")), Number(r.getAttribute("width"))]),
    );
  assert.equal(bands.length, 2);
  assert.ok(bands[0]![0]! + bands[0]![1]! <= bands[1]![0]!);
  assert.ok(bands[1]![0]! + bands[1]![1]! <= 564.01);
  await page.close();
});

test("stats split: statistics sent again while picking keep the split, unless their timeline no longer reaches it", async (browser) => {
  const page = await openStats(browser);
  const view = await beforeAfterStats();
  await sendStats(page, { type: "stats", view });
  await openPicker(page);
  await pickMidnight(page);
  await sendStats(page, { type: "stats", view });
  assert.match(await valueText(page), /^2025-03-11 00:00 UTC/);
  await sendStats(page, { type: "stats", view: { ...view, timeline: view.timeline.slice(0, 3) } });
  await page.waitForSelector(".split-picker", { state: "detached" });
  assert.equal(await page.locator('[data-action="split"]').count(), 1);
  await page.close();
});

test("stats split: a set without times says, where the control would be, that it cannot be split", async (browser) => {
  const page = await openStats(browser);
  const view = await beforeAfterStats();
  await sendStats(page, { type: "stats", view: { ...view, timeline: [] } });
  await page.waitForSelector('[data-split="none"]');
  assert.equal(
    (await page.locator('[data-split="none"]').innerText()).trim(),
    "So this set cannot be split at a time to compare before with after.",
  );
  assert.equal(await page.locator('[data-action="split"]').count(), 0);
  await page.close();
});

test("stats split: a split the host refuses is said in the status, and the focus goes back to the button", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await beforeAfterStats() });
  await openPicker(page);
  const asking = await postedCount(page);
  await page.keyboard.press("Enter");
  const asked = await waitForStatsPosted(page, "split", asking);
  await sendStats(page, {
    type: "reply",
    requestId: asked.requestId,
    ok: false,
    message: "Not compared: the reading was cancelled.",
  });
  await page.waitForFunction(
    () =>
      document.querySelector(".status")?.textContent === "Not compared: the reading was cancelled.",
  );
  assert.equal(
    await page.evaluate(() => document.activeElement?.getAttribute("data-action")),
    "split",
  );
  assert.equal(await page.locator(".comparison").count(), 0);
  await page.close();
});

for (const theme of Object.keys(THEMES))
  for (const width of [380, 1440]) {
    test(`stats split: screenshot of a comparison split at a time, ${theme} theme, ${width} px`, async (browser) => {
      const page = await openStats(browser, { theme, width, height: 900 });
      await sendStats(page, { type: "stats", view: await beforeAfterStats() });
      await openPicker(page);
      await pickMidnight(page);
      const asking = await postedCount(page);
      await page.locator('[data-action="split-set"]').click();
      await answerSplit(page, asking);
      await page.locator(".changes button[data-tool]").first().focus();
      // Nothing is wider than the view (the two tables scroll sideways in their own boxes).
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        "the page does not scroll sideways",
      );
      const errors = await page.evaluate(() => (globalThis as unknown as PageGlobals).__errors);
      assert.deepEqual(errors, []);
      await screenshot(page, `stats-split-${theme}-${width}.png`);
      await page.close();
    });
  }
