import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { test } from "./harness.js";
import { openPanel, send, THEMES, waitForPosted } from "./page.js";
import { EXAMPLE, load, showFixture, whatIfResult } from "./reports.js";

for (const theme of Object.keys(THEMES)) {
  test(`screenshot: ${theme} theme`, async (browser) => {
    const page = await openPanel(browser, { theme, height: 1000 });
    const fixture = await load(EXAMPLE);
    await send(page, showFixture(fixture));
    await page.locator('.chip[data-tool="final_answer"]').first().click();
    await page.waitForSelector(".cell");
    await page.evaluate(() => document.fonts.ready);
    await mkdir("docs/screenshots", { recursive: true });
    await page.screenshot({ path: `docs/screenshots/webview-${theme}.png`, fullPage: true });
    assert.ok(await page.locator(".lineage-answer").innerText());
    await page.close();
  });
}

test("screenshot: what-if with the comparison (dark)", async (browser) => {
  const page = await openPanel(browser, { height: 1100 });
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await page.locator("details.whatif > summary").click();
  await page.locator('[data-lever="policy:policy:budget"]').locator("input").fill("0.01");
  const message = await waitForPosted(page, "whatIf");
  await send(page, whatIfResult(fixture, message.edit, message.requestId));
  await page.waitForSelector(".comparison");
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: "docs/screenshots/webview-whatif.png", fullPage: true });
  await page.close();
});
