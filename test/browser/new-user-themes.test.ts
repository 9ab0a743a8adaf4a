// What a new user's points changed on the webview pages, in the light, dark and high-contrast
// themes at 380 and 1440 px: a refused copy said beside the toolbar (the what-if open), what
// this run would send the model, and the statistics chart with both axes labelled. Each test
// checks that nothing is cut off at the panel's edge, then writes a PNG to
// SCREENSHOTS_DIR/themes/ (npm run screenshots:themes).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { test } from "./harness.js";
import { openPanel, refusedWhatIfCopy, screenshot, send } from "./page.js";
import { EXAMPLE, load, showFixture } from "./reports.js";
import { openStats, sendStats, syntheticStats } from "./stats-data.js";

const WIDTHS = [380, 1440] as const;

/** Elements under `selector` that reach past the page's right edge (clipped or scrolled off). */
function pastTheEdge(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    (s) =>
      Array.from(document.querySelectorAll(`${s}, ${s} *`))
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute("class") ?? ""}`),
    selector,
  );
}

for (const theme of ["light", "dark", "high-contrast"])
  for (const width of WIDTHS) {
    test(`panel ${theme} ${width}: a refused copy is said beside the toolbar, whole, with the levers open`, async (browser) => {
      const page = await openPanel(browser, { theme, width, height: 700 });
      await send(page, showFixture(await load(EXAMPLE)));
      await page.waitForSelector(".waterfall .stage-row");
      await refusedWhatIfCopy(page);
      await page.locator(".action-status", { hasText: "no run to copy" }).waitFor();
      assert.deepEqual(await pastTheEdge(page, ".toolbar"), []);
      assert.deepEqual(await pastTheEdge(page, ".action-status"), []);
      await screenshot(page, `themes/panel-refused-copy-${theme}-${width}.png`, false);
      await page.close();
    });

    test(`panel ${theme} ${width}: what this run would send the model, named as such, whole`, async (browser) => {
      const page = await openPanel(browser, { theme, width, height: 700 });
      await send(page, showFixture(await load(EXAMPLE)));
      const section = page.locator(".model-sees");
      await section.waitFor();
      assert.equal(await section.locator("h2").innerText(), "What this run would send the model");
      assert.deepEqual(await pastTheEdge(page, ".model-sees"), []);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `themes/panel-model-${theme}-${width}.png`, false);
      await page.close();
    });

    test(`stats ${theme} ${width}: the chart's axes say what they count, whole`, async (browser) => {
      const page = await openStats(browser, { theme, width, height: 900 });
      await sendStats(page, { type: "stats", view: syntheticStats(60, 48) });
      const chart = page.locator(".timeline");
      await chart.waitFor();
      const left = await page.locator(".timeline-chart .palette-text").allTextContents();
      assert.equal(left.length, 3, JSON.stringify(left));
      assert.match(left[0]!, / tools$/);
      const right = await page.locator(".timeline-chart .failures-text").allTextContents();
      assert.match(right[0]!, /failures?$/);
      assert.deepEqual(await pastTheEdge(page, ".timeline"), []);
      // The SVG scales with the panel: its labels as drawn, in CSS pixels, stay readable.
      const drawn = await page.evaluate(() => {
        const chart = document.querySelector<SVGSVGElement>(".timeline-chart")!;
        const tick = chart.querySelector(".tick")!;
        return (
          (parseFloat(getComputedStyle(tick).fontSize) * chart.clientWidth) /
          chart.viewBox.baseVal.width
        );
      });
      assert.ok(drawn >= 9, `the axis labels are drawn ${drawn.toFixed(1)} px high`);
      await chart.scrollIntoViewIfNeeded();
      await screenshot(page, `themes/stats-chart-${theme}-${width}.png`, false);
      await page.close();
    });
  }
