import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, send } from "./page.js";
import { EXAMPLE, load, showFixture } from "./reports.js";

test("keyboard: a row's chips are one tab stop with arrow keys inside; Enter and Space select; focus is visible and stays put", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .chip");
  const focused = () =>
    page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      return {
        tool: active.dataset.tool ?? null,
        action: active.dataset.action ?? null,
        id: active.id || null,
        stage: active.closest<HTMLElement>("[data-stage]")?.dataset.stage ?? null,
        outline: getComputedStyle(active).outlineStyle,
      };
    });
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Tab");
    const now = await focused();
    seen.push(now.action ?? now.id ?? `${now.stage}:${now.tool}`);
    if (now.stage === "intent") break;
  }
  // Toolbar, the labelled tool-name field, then the first row's one tab stop: its first chip.
  assert.deepEqual(seen, [
    "copy",
    "whatif",
    "compare",
    "save",
    "matrix",
    "lineage-input",
    "intent:search",
  ]);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const onChip = await focused();
  assert.deepEqual([onChip.stage, onChip.tool], ["intent", "final_answer"]);
  await page.keyboard.press("ArrowRight");
  assert.equal((await focused()).tool, "sql", "arrows cross from kept to dropped in the row");
  assert.notEqual((await focused()).outline, "none");
  await page.keyboard.press("Enter");
  await page.waitForSelector('.chip.is-selected[data-tool="sql"]');
  assert.deepEqual(await focused().then((f) => [f.tool, f.stage]), ["sql", "intent"]);
  await page.keyboard.press("Tab");
  assert.equal((await focused()).stage, "forced", "Tab leaves the row: one stop per row");
  await page.keyboard.press("Shift+Tab");
  assert.deepEqual(await focused().then((f) => [f.tool, f.stage]), ["sql", "intent"]);
  await page.keyboard.press("End");
  await page.keyboard.press("Space");
  await page.waitForSelector('.chip.is-selected[data-tool="delete_rows"]');
  assert.match(
    await page.locator("#lineage-answer").innerText(),
    /^delete_rows: dropped by intent/,
  );
  assert.equal(
    await page.evaluate(
      () => document.querySelectorAll('.stage-row[data-stage="intent"] .chip[tabindex="0"]').length,
    ),
    1,
  );
  await page.close();
});

test("keyboard: the tool-name field is announced by its label", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  const name = await page.evaluate(() => {
    const input = document.getElementById("lineage-input") as HTMLInputElement;
    return Array.from(input.labels ?? [], (label) => label.textContent).join(" ");
  });
  assert.equal(name, "Tool name");
  assert.equal(
    await page.getByLabel("Tool name", { exact: true }).getAttribute("id"),
    "lineage-input",
  );
  await page.close();
});
