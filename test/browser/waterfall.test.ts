import assert from "node:assert/strict";
import { runFixture } from "../../src/core/run-fixture.js";
import { test } from "./harness.js";
import {
  openPanel,
  openWhatIf,
  screenshot,
  send,
  waitForPosted,
  type PageGlobals,
} from "./page.js";
import {
  CAPABILITY,
  EVERY_ACTION,
  EXAMPLE,
  FORCED_UNAVAILABLE,
  load,
  showFixture,
  whatIfResult,
} from "./reports.js";

const texts = (selector: string) =>
  `Array.from(document.querySelectorAll(${JSON.stringify(selector)}), (e) => e.textContent.trim())`;

test("waterfall: one row per stage with action badges, counts, chips, reasons and the forced pin", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  const report = runFixture(fixture);
  await send(page, showFixture(fixture, report));
  await page.waitForSelector(".waterfall .stage-row");
  assert.deepEqual(await page.evaluate(texts(".stage-row .stage-name")), [
    "intent",
    "forced",
    "role",
    "policy",
    "allowlist",
  ]);
  assert.deepEqual(
    await page.evaluate(
      `Array.from(document.querySelectorAll(".stage-row .badge"), (e) => e.getAttribute("aria-label"))`,
    ),
    ["action: select", "action: force", "action: select", "action: select", "action: select"],
  );
  assert.deepEqual(await page.evaluate(texts(".stage-row .flow-count")), [
    "5 → 3",
    "3 → 3",
    "3 → 2",
    "2 → 2",
    "2 → 3",
  ]);
  const dropped = page.locator('.stage-row[data-stage="intent"] .chip-dropped[data-tool="sql"]');
  const reason = report.trace[0]!.reasons.sql!;
  assert.ok(reason);
  assert.equal(await dropped.getAttribute("aria-label"), `sql, dropped: ${reason}`);
  assert.equal(await dropped.getAttribute("title"), `sql — dropped: ${reason}`);
  assert.equal(
    await page.locator('.stage-row[data-stage="allowlist"] .chip-added').getAttribute("data-tool"),
    "final_answer",
  );
  assert.equal(
    await page.locator('.stage-row[data-stage="forced"] .pin').getAttribute("aria-label"),
    "forced choice set: get_weather",
  );
  assert.equal(await page.locator(".header h1").textContent(), "weather.turn.json");
  assert.deepEqual(await page.evaluate(texts(".header .stats .stat")), [
    "Offered 5 → final 3",
    "Forced: get_weather",
    `Ran in ${report.durationMs.toFixed(2)} ms`,
  ]);
  assert.match(
    await page.locator(".model-sees").innerText(),
    /^What this run would send the model\s+[\s\S]*get_weather — Current weather for a city\.[\s\S]*tool_choice: forced to get_weather/,
  );
  assert.deepEqual(
    await page.evaluate(() => (globalThis as unknown as PageGlobals).__violations),
    [],
  );
  await page.close();
});

test("waterfall: abstain, error, degraded, reinstated, released and disabled rows", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EVERY_ACTION)));
  await page.waitForSelector(".waterfall .stage-row");
  const badge = (stage: string) =>
    page.locator(`.stage-row[data-stage="${stage}"] .badge`).getAttribute("aria-label");
  assert.equal(await badge("lazy"), "action: abstain");
  assert.equal(await badge("flaky"), "action: error");
  assert.equal(await badge("allowlist"), "action: disabled");
  assert.match(
    (await page.locator('.stage-row[data-stage="allowlist"]').getAttribute("class"))!,
    /is-disabled/,
  );
  assert.equal(await page.locator('.stage-row[data-stage="role"] .tag-degraded').count(), 1);
  assert.equal(await page.locator('.stage-row[data-stage="flaky"] .tag-degraded').count(), 1);
  assert.match(
    await page.locator('.stage-row[data-stage="flaky"] .detail').innerText(),
    /upstream timed out/,
  );
  const reinstated = page.locator('.stage-row[data-stage="policy"] .chip-reinstated');
  assert.equal(await reinstated.getAttribute("data-tool"), "sql");
  assert.match(
    (await reinstated.getAttribute("aria-label"))!,
    /^sql, reinstated as the protected forced choice/,
  );
  assert.equal(
    await page.locator('.stage-row[data-stage="release"] .pin').getAttribute("aria-label"),
    "forced choice released",
  );
  await page.close();
});

test("banner: ForcedToolUnavailable names the tool, the stage and that it does not protect the forced choice", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(FORCED_UNAVAILABLE)));
  const banner = page.locator('.banner[role="alert"]');
  await banner.waitFor();
  assert.equal(
    await banner.innerText(),
    "ForcedToolUnavailable: sql is the forced choice but not in the final palette: it was dropped by policy, a hard filter (a stage that does not protect the forced choice).",
  );
  assert.equal(await page.locator('.stage-row[data-stage="policy"] .tag-hard').count(), 1);
  await page.close();
});

test("banner: a what-if forcing a tool intent dropped earlier says it was dropped before the force, so nothing reinstated it", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  const input = page.locator('[data-lever="forced:forced"] input');
  await input.fill("sql");
  await input.press("Enter");
  const message = await waitForPosted(page, "whatIf");
  assert.deepEqual(message.edit.forcedTools, { forced: "sql" });
  await send(page, whatIfResult(fixture, message.edit, message.requestId));
  const banner = page.locator('.banner[role="alert"]');
  await banner.waitFor();
  assert.equal(
    await banner.innerText(),
    "ForcedToolUnavailable: sql is the forced choice but not in the final palette: it was dropped by intent before forced set the force, so nothing reinstated it.",
  );
  // The names are set apart from the prose, as everywhere in the panel.
  assert.deepEqual(await page.locator(".banner-error bdi.name").allInnerTexts(), [
    "sql",
    "intent",
    "forced",
  ]);
  await banner.scrollIntoViewIfNeeded();
  await screenshot(page, "banner-dropped-before-force.png", false);
  await page.close();
});

test("capability mode: the router is the first row and the palette outcome the last", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(CAPABILITY)));
  await page.waitForSelector(".waterfall .stage-row");
  assert.deepEqual(await page.evaluate(texts(".stage-row .stage-name")), [
    "router",
    "allowlist",
    "palette",
  ]);
  assert.equal(
    await page.locator('.stage-row[data-stage="router"] .badge').getAttribute("aria-label"),
    "action: routed",
  );
  assert.equal(
    await page
      .locator('.stage-row[data-stage="router"] .chip-dropped[data-tool="sql"]')
      .getAttribute("aria-label"),
    "sql, dropped: not routed by the router",
  );
  assert.equal(
    await page.locator('.stage-row[data-stage="palette"] .badge').getAttribute("aria-label"),
    "action: applied",
  );
  assert.match(
    await page.locator('.stage-row[data-stage="palette"] .detail').innerText(),
    /selection applied/,
  );
  await page.close();
});
