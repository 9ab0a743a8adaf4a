import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, send, type PageGlobals } from "./page.js";
import { load, showFixture, XSS, XSS_FIXTURE } from "./reports.js";

for (const withoutCsp of [false, true]) {
  test(`xss: hostile names, details and descriptions render as literal text and run nothing (${withoutCsp ? "even without the CSP" : "with the CSP"})`, async (browser) => {
    const page = await openPanel(browser, { withoutCsp });
    await send(
      page,
      showFixture(await load(XSS_FIXTURE, "<img src=x onerror=window.__pwned++>.turn.json")),
    );
    await page.waitForSelector(".waterfall .stage-row");
    for (const chip of await page.locator(".stage-row .chip").all()) await chip.click();
    await page.locator('[data-action="matrix"]').click();
    await page.waitForSelector(".matrix-table");
    await page.locator('[data-action="matrix"]').click();
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    const result = await page.evaluate(() => ({
      pwned: (globalThis as unknown as PageGlobals).__pwned,
      errors: (globalThis as unknown as PageGlobals).__errors,
      injected: document.querySelectorAll(
        "#root img, #root script, #root iframe, #root a[href], #root b, [onerror], [onmouseover]",
      ).length,
      chipNames: Array.from(
        document.querySelectorAll('.stage-row:first-child .chip[data-kind="kept"] .chip-name'),
        (e) => e.textContent,
      ),
      stage: document.querySelector(".stage-row .stage-name")?.textContent,
      detail: document.querySelector(".stage-row .detail")?.textContent,
      description: document.querySelector(".description")?.textContent,
      widest: document.documentElement.scrollWidth,
    }));
    assert.equal(result.pwned, 0);
    assert.deepEqual(result.errors, []);
    assert.equal(result.injected, 0);
    assert.deepEqual(result.chipNames, XSS.slice(0, 5));
    assert.equal(result.stage, "<b>stage</b><script>window.__pwned++</script>");
    assert.equal(result.detail, '<img src=x onerror="window.__pwned++">\u2028detail');
    assert.equal(result.description, XSS_FIXTURE.description);
    assert.ok(
      result.widest <= 1100,
      `a 10,000-character name must not widen the page (scrollWidth ${result.widest})`,
    );
    const long = page.locator(`.chip[data-tool="${"x".repeat(10_000)}"]`).first();
    assert.equal(
      await long.getAttribute("aria-label"),
      `${"x".repeat(10_000)}, dropped: <script>window.__pwned++</script> reason`,
    );
    await page.close();
  });
}
