// The screenshots of the webview in each theme and of a what-if: each test first checks that the
// page shows what the picture is meant to show, then writes it to SCREENSHOTS_DIR
// (test-results/screenshots/; `npm run screenshots` points it at docs/screenshots/).
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { toolLineage } from "../../src/core/lineage.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { test } from "./harness.js";
import {
  openPanel,
  openWhatIf,
  type PageGlobals,
  SCREENSHOTS_DIR,
  send,
  THEMES,
  waitForPosted,
} from "./page.js";
import { EXAMPLE, load, otelTurns, showFixture, showTrace, whatIfResult } from "./reports.js";

/** `#rrggbb` as the `rgb(r, g, b)` that getComputedStyle reports. */
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

/** Writes the page's PNG and returns its width and height, read from the file's IHDR chunk. */
async function saveScreenshot(page: Page, name: string): Promise<[number, number]> {
  await page.evaluate(() => document.fonts.ready);
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, name);
  await page.screenshot({ path, fullPage: true });
  const png = await readFile(path);
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG", `${path} is a PNG`);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

async function assertClean(page: Page): Promise<void> {
  const { errors, violations } = await page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    return { errors: w.__errors, violations: w.__violations };
  });
  assert.deepEqual(errors, [], "no script errors");
  assert.deepEqual(violations, [], "no CSP violations");
}

for (const theme of Object.keys(THEMES)) {
  test(`screenshot: ${theme} theme shows final_answer's lineage in the theme's colours`, async (browser) => {
    const page = await openPanel(browser, { theme, height: 1000 });
    const fixture = await load(EXAMPLE);
    const report = runFixture(fixture);
    await send(page, showFixture(fixture, report));
    await page.locator('.chip[data-tool="final_answer"]').first().click();
    await page.waitForSelector(".cell");
    assert.equal(await page.locator(".waterfall .stage-row").count(), report.stages.length);
    const expected = toolLineage(report, "final_answer").sentence.replace(/`/g, "");
    assert.equal(
      (await page.locator("#lineage-answer").innerText()).replace(/\s+Reveal in fixture$/, ""),
      `final_answer: ${expected}`,
    );
    const colour = await page.evaluate(() => getComputedStyle(document.body).color);
    assert.equal(colour, rgb(THEMES[theme]!.foreground!), "text takes the theme's foreground");
    await assertClean(page);
    const [width, height] = await saveScreenshot(page, `webview-${theme}.png`);
    assert.equal(width, 1100);
    assert.ok(height >= 1000, `the full page is captured (height ${height})`);
    await page.close();
  });
}

test("screenshot: what-if shows the variant compared with the original (dark)", async (browser) => {
  const page = await openPanel(browser, { height: 1100 });
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  await page.locator('[data-lever="policy:policy:budget"]').locator("input").fill("0.005");
  const message = await waitForPosted(page, "whatIf");
  assert.deepEqual(message.edit.policies, { policy: { budgetUsd: 0.005 } });
  await send(page, whatIfResult(fixture, message.edit, message.requestId));
  await page.waitForSelector(".comparison");
  assert.match(await page.locator(".comparison").innerText(), /policy/);
  await assertClean(page);
  const [width] = await saveScreenshot(page, "webview-whatif.png");
  assert.equal(width, 1100);
  await page.close();
});

test("screenshot: a turn read from OpenTelemetry shows what the model got (dark)", async (browser) => {
  const page = await openPanel(browser, { height: 700 });
  await send(page, showTrace(otelTurns()[2]!));
  await page.waitForSelector(".model-got .model-warning");
  assert.match(await page.locator(".model-got").innerText(), /lost after selection/);
  await assertClean(page);
  const [width] = await saveScreenshot(page, "webview-model.png");
  assert.equal(width, 1100);
  await page.close();
});
