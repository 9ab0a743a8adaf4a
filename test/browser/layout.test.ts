// The panel in a narrow column (382 px, as a side editor group): what does not fit says so, and
// nothing breaks in the middle of a name. Each test checks the page, then writes a screenshot.
import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, screenshot, send } from "./page.js";
import { EVERY_ACTION, largeFixture, load, showFixture } from "./reports.js";

const NARROW = 382;

for (const theme of ["light", "dark", "high-contrast"]) {
  test(`narrow ${theme}: a matrix wider than the panel says it scrolls, and its buttons scroll it`, async (browser) => {
    const page = await openPanel(browser, { width: NARROW, height: 700, theme });
    await send(page, showFixture(await load(largeFixture(12, 9), "large.turn.json")));
    await page.locator('[data-action="matrix"]').click();
    const cue = page.locator(".scroll-cue");
    await cue.waitFor();
    assert.match(await cue.innerText(), /more stages to the side/);
    assert.equal(await page.locator('[data-action="scroll-left"]').isVisible(), false);
    assert.equal(await page.locator(".scroll-fade").isVisible(), true);
    await cue.scrollIntoViewIfNeeded();
    await screenshot(page, `webview-narrow-matrix-${theme}.png`, false);
    // By keyboard: the button scrolls the page sideways, and the way back appears.
    await page.locator('[data-action="scroll-right"]').focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => window.scrollX > 0);
    await page.locator('[data-action="scroll-left"]').waitFor();
    // The cue stays in view while the page is scrolled.
    const left = await cue.evaluate((node) => Math.round(node.getBoundingClientRect().left));
    assert.ok(left >= 0 && left < 40, `the cue is in view (left ${left})`);
    await page.close();
  });

  test(`narrow ${theme}: fixture problems break only after a path separator, the place stays whole`, async (browser) => {
    const page = await openPanel(browser, { width: NARROW, height: 400, theme });
    await send(page, {
      type: "problems",
      file: "/work/examples/a-rather-long-folder-name/my-first.turn.json",
      source: null,
      problems: [
        {
          severity: "error",
          file: "examples/a-rather-long-folder-name/my-first.turn.json",
          line: 8,
          column: 15,
          message: "unknown tool 'get_wether' in $.pipeline[0].allow",
        },
      ],
    });
    const where = page.locator(".problem .where-end");
    await where.waitFor();
    assert.equal(await where.innerText(), "my-first.turn.json:8:15");
    const lines = await where.evaluate((node) => node.getClientRects().length);
    assert.equal(lines, 1, "file:line:col is on one line");
    await screenshot(page, `webview-narrow-problems-${theme}.png`);
    await page.close();
  });
}

test("a matrix that fits the panel shows no scroll cue", async (browser) => {
  const page = await openPanel(browser, { width: 1100 });
  await send(page, showFixture(await load(EVERY_ACTION)));
  await page.locator('[data-action="matrix"]').click();
  await page.waitForSelector(".matrix-table");
  await page.waitForTimeout(100);
  assert.equal(await page.locator(".scroll-cue").isVisible(), false);
  await page.close();
});
