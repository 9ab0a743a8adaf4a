import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, openWhatIf, send, timeFirstScreen, waitForPosted } from "./page.js";
import { EXAMPLE, largeFixture, load, showFixture } from "./reports.js";

test("re-render: typing in a what-if field keeps its focus and caret when the host sends the run again", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  const input = page.locator('[data-lever="role"] input');
  await input.click();
  await input.press("End");
  await page.keyboard.type("ops");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await waitForPosted(page, "whatIf");
  // The fixture saved in the editor: the host posts its run again while the user types.
  await send(page, showFixture(fixture));
  await page.waitForFunction(() => document.querySelector(".header") !== null);
  await page.keyboard.type("X");
  const field = await page.evaluate(() => {
    const host = document.activeElement as HTMLElement;
    const inner = host.shadowRoot?.activeElement as HTMLInputElement | null;
    return { lever: host.dataset.lever ?? null, value: inner?.value, caret: inner?.selectionStart };
  });
  const typed = `${fixture.json.turn?.role ?? ""}o`;
  assert.deepEqual(field, { lever: "role", value: `${typed}Xps`, caret: typed.length + 1 });
  await page.close();
});

test("re-render: a scrolled waterfall keeps its rows where they were when a chip is selected", async (browser) => {
  const page = await openPanel(browser, { height: 700 });
  await timeFirstScreen(page, showFixture(await load(largeFixture(400, 20), "large.turn.json")));
  // Scroll down through the rows (they fill their chips as they come near), then back to one.
  await page.evaluate(async () => {
    const frames = () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const row of document.querySelectorAll(".stage-row")) {
      row.scrollIntoView();
      await frames();
    }
    document.querySelector('.stage-row[data-stage="stage_12"]')!.scrollIntoView();
    await frames();
  });
  const where = () =>
    page.evaluate(() => ({
      scrollY: Math.round(window.scrollY),
      top: Math.round(
        document.querySelector('.stage-row[data-stage="stage_12"]')!.getBoundingClientRect().top,
      ),
    }));
  const before = await where();
  assert.ok(before.scrollY > 0);
  await page.locator('.stage-row[data-stage="stage_12"] .chip').first().click();
  await page.waitForSelector('.stage-row[data-stage="stage_12"] .cell');
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  const after = await where();
  // Every row gains its one-line "here:" answer, so the page grows above the row; the row stays put.
  assert.ok(
    Math.abs(after.top - before.top) <= 1,
    `the row moved from ${before.top} to ${after.top}`,
  );
  await page.close();
});

test("re-render: a focused chip stays the focused element, without losing focus, when the run is replaced", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  const chip = page.locator('.stage-row[data-stage="intent"] .chip[data-tool="sql"]');
  await chip.focus();
  await page.evaluate(() => {
    const w = globalThis as unknown as { __focusLost: number };
    w.__focusLost = 0;
    (document.activeElement as HTMLElement & { __mark?: boolean }).__mark = true;
    document.addEventListener("focusout", () => w.__focusLost++, true);
  });
  await send(page, showFixture(fixture));
  await page.waitForFunction(() => document.querySelector(".header") !== null);
  const focus = await page.evaluate(() => {
    const active = document.activeElement as HTMLElement & { __mark?: boolean };
    return {
      tool: active.dataset.tool ?? null,
      sameElement: active.__mark === true,
      lost: (globalThis as unknown as { __focusLost: number }).__focusLost,
    };
  });
  assert.deepEqual(focus, { tool: "sql", sameElement: true, lost: 0 });
  await page.close();
});
