import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "./harness.js";
import { openPanel, SCREENSHOTS_DIR, send, THEMES, type PageGlobals } from "./page.js";
import { EXAMPLE, load, showFixture } from "./reports.js";
import {
  exampleStats,
  openStats,
  postedCount,
  sendStats,
  syntheticStats,
  timeStatsFirstPaint,
  waitForStatsPosted,
} from "./stats-data.js";

test("stats: summary, one stage card per stage with its action bar, the chart over time and every tool", async (browser) => {
  const page = await openStats(browser);
  const view = await exampleStats();
  await sendStats(page, { type: "stats", view });
  await page.waitForSelector(".tools-body .tools-row");
  assert.match(
    await page.locator("header p").first().innerText(),
    /^42 traces in \d+ logs · 4 problems · errors: ForcedToolUnavailable 2$/,
  );
  assert.deepEqual(
    await page
      .locator(".stage-card")
      .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.stage)),
    ["intent", "forced", "role", "policy", "allowlist"],
  );
  assert.equal(
    await page.locator('.stage-card[data-stage="role"] .stack').getAttribute("aria-label"),
    "role: select 98%, error 2%",
  );
  assert.equal(
    await page.locator('.stage-card[data-stage="role"] .degraded').innerText(),
    "1 degraded",
  );
  assert.ok((await page.locator(".timeline-chart .palette-dot").count()) >= 2);
  // Each axis says what it counts: the left its top in tools and a middle tick, the right failures.
  const left = await page.locator(".timeline-chart .palette-text").allTextContents();
  assert.equal(left.length, 3, left.join(" | "));
  assert.match(left[0]!, /^\d+(\.\d)? tools$/);
  assert.equal(left[2], "0");
  const right = await page.locator(".timeline-chart .failures-text").allTextContents();
  assert.match(right[0]!, /^\d+ failures?$/);
  assert.equal(right[1], "0");
  assert.equal(await page.locator(".tools-body .tools-row").count(), view.tools.names.length);
  // Most often missing first, as the view opens.
  const first = await page.locator(".tools-body .tools-row").first().getAttribute("data-tool");
  assert.ok(["delete_rows", "send_email", "sql"].includes(first!));
  assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageGlobals).__errors), []);
  await page.close();
});

test("stats: sorting by a column and filtering by name change the rows and what is copied", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.waitForSelector(".tools-body .tools-row");
  await page.locator('button[data-sort="name"]').click();
  const header = page.locator('[role="columnheader"]:has(button[data-sort="name"])');
  assert.equal(await header.getAttribute("aria-sort"), "ascending");
  const names = () =>
    page
      .locator(".tools-body .tools-row")
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.tool));
  assert.deepEqual((await names()).slice(0, 3), ["ask_human", "calendar_lookup", "create_ticket"]);
  await page.locator('button[data-sort="name"]').click();
  assert.equal(await header.getAttribute("aria-sort"), "descending");
  assert.equal((await names())[0], "vector_search");
  await page.locator("#tool-filter").fill("_LO");
  assert.deepEqual(await names(), ["calendar_lookup"]);
  assert.equal(await page.locator(".table-controls .muted").innerText(), "1 of 10 tools");
  const before = await postedCount(page);
  await page.locator('[data-action="copy"]').click();
  const copy = await waitForStatsPosted(page, "copyMarkdown", before);
  assert.deepEqual(copy.tools, ["calendar_lookup"]);
  await sendStats(page, {
    type: "reply",
    requestId: copy.requestId,
    ok: true,
    message: "Copied the tables as Markdown.",
  });
  await page.waitForSelector(".status:has-text('Copied the tables')");
  const state = await page.evaluate(() => (globalThis as unknown as PageGlobals).__state);
  assert.deepEqual(state, {
    sources: ["file:///workspace/examples/logs"],
    sort: { column: "name", descending: true },
    filter: "_LO",
    tool: null,
  });
  await page.close();
});

test("stats: keyboard only — to the table, down a row, Enter lists where the tool went, then open a trace", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.waitForSelector(".tools-body .tools-row");
  await page.locator("#tool-filter").focus();
  // Past the six column headers (each a sort button) to the rows.
  for (let i = 0; i < 7; i++) await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.className), "tools-body");
  await page.keyboard.press("ArrowDown");
  const active = await page.locator(".tools-row.is-active").getAttribute("data-tool");
  // Its Missing cell: the group below takes all of it.
  const missing = Number(await page.locator(".tools-row.is-active .cell").nth(4).innerText());
  assert.equal(
    await page.locator(".tools-body").getAttribute("aria-activedescendant"),
    "tool-row-1",
  );
  const before = await postedCount(page);
  await page.keyboard.press("Enter");
  const asked = await waitForStatsPosted(page, "missing", before);
  assert.equal(asked.tool, active);
  await sendStats(page, {
    type: "missing",
    requestId: asked.requestId,
    tool: active!,
    groups: [
      {
        stage: "intent",
        failed: false,
        total: missing,
        traces: [
          {
            ref: 7,
            file: "examples/logs/agent.log",
            line: 3,
            time: "2025-03-14 09:26:50,011",
            id: "t-4f1c2a",
          },
        ],
      },
      { stage: "ForcedToolUnavailable", failed: true, total: 3, traces: [] },
    ],
  });
  await page.waitForSelector(".missing-group");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "missing-title");
  assert.match(
    await page.locator('.missing-group[data-stage="intent"] h3').innerText(),
    new RegExp(`^intent — 100% \\(${missing} traces, first 1 listed\\)$`),
  );
  assert.match(
    await page.locator('.missing-group[data-stage="ForcedToolUnavailable"] h3').innerText(),
    /^the turn failed with ForcedToolUnavailable before the model was called — /,
  );
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const open = await waitForStatsPosted(page, "openTrace", before);
  assert.deepEqual(open, { type: "openTrace", ref: 7, tool: active });
  await page.close();
});

test("stats: 10,000 tools paint their first screen in under 500 ms with only the rows in view in the DOM", async (browser) => {
  const page = await openStats(browser);
  const view = syntheticStats(10_000);
  assert.equal(view.tools.names.length, 10_000);
  const ms = await timeStatsFirstPaint(page, view);
  assert.ok(ms < 500, `first paint took ${ms.toFixed(0)} ms`);
  const rows = await page.locator(".tools-body .tools-row").count();
  assert.ok(rows < 80, `${rows} rows in the DOM`);
  await page.locator('button[data-sort="name"]').click();
  await page.locator(".tools-body").focus();
  await page.keyboard.press("End");
  await page.waitForSelector('.tools-row.is-active[data-tool="tool_09999"]');
  assert.equal(
    await page.locator('.tools-row[data-tool="tool_09999"]').getAttribute("aria-rowindex"),
    "10001",
  );
  await page.close();
});

test("stats: hostile names are text — no markup, no script, no CSP violation", async (browser) => {
  const page = await openStats(browser, { withoutCsp: true });
  const evil = (i: number) =>
    i % 2 === 0
      ? `<img src=x onerror="window.__pwned++">${i}`
      : `\u202eevil</bdi><script>window.__pwned++</script>${i}`;
  const view = syntheticStats(40, 20, evil);
  await sendStats(page, { type: "stats", view });
  await page.waitForSelector(".tools-body .tools-row");
  await page.locator(".tools-body .tools-row").first().click();
  assert.equal(await page.locator(".tools-body img, .tools-body script").count(), 0);
  assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).__pwned), 0);
  const shown = await page.locator(".tools-body .tools-row .name").first().innerText();
  assert.ok(shown.includes("<"), shown);
  await page.close();
});

for (const theme of Object.keys(THEMES)) {
  test(`stats: screenshot, ${theme} theme`, async (browser) => {
    const page = await openStats(browser, { theme, height: 1150 });
    await sendStats(page, { type: "stats", view: syntheticStats(60, 48) });
    await page.waitForSelector(".tools-body .tools-row");
    await page.locator(".tools-body .tools-row").first().click();
    const asked = await waitForStatsPosted(page, "missing");
    await sendStats(page, {
      type: "missing",
      requestId: asked.requestId,
      tool: asked.tool,
      groups: [
        {
          stage: "intent",
          failed: false,
          total: 4,
          traces: [1, 2, 3].map((ref) => ({
            ref,
            file: "logs/agent.log",
            line: 10 * ref,
            time: `2025-03-14 0${ref}:00:00,000`,
            id: `t-${ref}`,
          })),
        },
      ],
    });
    await page.waitForSelector(".missing-group");
    await page.evaluate(() => document.fonts.ready);
    await mkdir(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `stats-${theme}.png`), fullPage: true });
    await page.close();
  });
}

test("trace panel: a logged trace opened from the statistics arrives with the tool's lineage selected", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  const message = showFixture(fixture);
  if (message.type !== "show") throw new Error("not a show message");
  await send(page, { ...message, view: { ...message.view, levers: null, selectedTool: "sql" } });
  await page.waitForSelector('.chip.is-selected[data-tool="sql"]');
  assert.match(await page.locator("#lineage-answer").innerText(), /^sql: dropped by /);
  await page.close();
});
