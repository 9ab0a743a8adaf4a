import assert from "node:assert/strict";
import { PANEL_REQUEST_TIMEOUTS } from "../../src/protocol.js";
import { test } from "./harness.js";
import { READY_RETRY_MS, READY_TRIES } from "../../webview/channel.js";
import {
  openPanel,
  openWhatIf,
  posted,
  refusedWhatIfCopy,
  send,
  waitForPosted,
  type PageGlobals,
} from "./page.js";
import { EXAMPLE, load, showFixture } from "./reports.js";

test("panel: a copy the host never answers fails after its timeout, and the status line says so", async (browser) => {
  const page = await openPanel(browser, { fakeClock: true });
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .stage-row");
  await page.locator('[data-action="copy"]').click();
  await waitForPosted(page, "copyMarkdown");
  await page.clock.runFor(PANEL_REQUEST_TIMEOUTS.copyMarkdown);
  assert.equal(await page.locator(".action-status").innerText(), "");
  await page.clock.runFor(2000);
  await page.waitForSelector(".action-status:has-text('did not answer')");
  assert.equal(
    await page.locator(".action-status").innerText(),
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
  await page.waitForSelector(".whatif-status:has-text('did not answer')");
  assert.equal(
    await page.locator(".whatif-status").innerText(),
    "The what-if did not run: The extension did not answer (whatIf) within 30 s.",
  );
  await page.close();
});

test("panel: a refused copy is said beside the toolbar, not below the levers", async (browser) => {
  const page = await openPanel(browser, { width: 380 });
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .stage-row");
  await refusedWhatIfCopy(page);
  const said = page.locator(".action-status");
  await said.filter({ hasText: "no run to copy" }).waitFor();
  const toolbar = await page.locator(".toolbar").boundingBox();
  const box = await said.boundingBox();
  const levers = await page.locator("#whatif").boundingBox();
  assert.ok(toolbar && box && levers);
  // Right under the toolbar, above the levers that fill a narrow panel.
  assert.ok(
    box.y >= toolbar.y + toolbar.height - 1 && box.y < toolbar.y + toolbar.height + 24,
    JSON.stringify({ toolbar, box }),
  );
  assert.ok(box.y < levers.y, JSON.stringify({ box, levers }));
  assert.equal(await page.locator(".whatif-status").innerText(), "");
  await page.close();
});

test("panel: a page the host has not answered says ready again, and stops once it hears from the host", async (browser) => {
  const page = await openPanel(browser, { fakeClock: true });
  const readies = async () => (await posted(page)).filter((m) => m.type === "ready").length;
  assert.equal(await readies(), 1);
  // The first ready (or the answer to it) was lost: the page asks again.
  await page.clock.runFor(READY_RETRY_MS + 100);
  assert.equal(await readies(), 2);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .stage-row");
  await page.clock.runFor(READY_RETRY_MS * READY_TRIES);
  assert.equal(await readies(), 2);
  await page.close();
});

test("panel: a page that never hears from the host stops asking after a few tries", async (browser) => {
  const page = await openPanel(browser, { fakeClock: true });
  await page.clock.runFor(READY_RETRY_MS * (READY_TRIES + 2));
  assert.equal((await posted(page)).filter((m) => m.type === "ready").length, READY_TRIES);
  await page.close();
});
