import assert from "node:assert/strict";
import { PANEL_REQUEST_TIMEOUTS } from "../../src/protocol.js";
import { test } from "./harness.js";
import { openPanel, openWhatIf, send, waitForPosted, type PageGlobals } from "./page.js";
import { EXAMPLE, load, showFixture } from "./reports.js";

test("panel: a copy the host never answers fails after its timeout, and the status line says so", async (browser) => {
  const page = await openPanel(browser, { fakeClock: true });
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .stage-row");
  await page.locator('[data-action="copy"]').click();
  await waitForPosted(page, "copyMarkdown");
  await page.clock.runFor(PANEL_REQUEST_TIMEOUTS.copyMarkdown);
  assert.equal(await page.locator(".status").innerText(), "");
  await page.clock.runFor(2000);
  await page.waitForSelector(".status:has-text('did not answer')");
  assert.equal(
    await page.locator(".status").innerText(),
    "Nothing was copied: The extension did not answer (copyMarkdown) within 30 s.",
  );
  assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageGlobals).__errors), []);
  await page.close();
});

test("panel: a what-if the host never answers fails after its timeout, and says so", async (browser) => {
  const page = await openPanel(browser, { fakeClock: true });
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .stage-row");
  await openWhatIf(page);
  await page.locator('[data-lever="policy:policy:budget"]').locator("input").fill("0.005");
  await page.clock.runFor(200);
  await waitForPosted(page, "whatIf");
  await page.clock.runFor(PANEL_REQUEST_TIMEOUTS.whatIf + 2000);
  await page.waitForSelector(".status:has-text('did not answer')");
  assert.equal(
    await page.locator(".status").innerText(),
    "The what-if did not run: The extension did not answer (whatIf) within 30 s.",
  );
  await page.close();
});
