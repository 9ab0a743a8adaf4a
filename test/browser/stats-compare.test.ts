import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { compareStats } from "../../src/core/stats/comparison.js";
import { PaletteStats } from "../../src/core/stats/fold.js";
import { validateTrace } from "../../src/core/traces/trace.js";
import {
  comparisonView,
  type ComparisonView,
  type FromStatsView,
} from "../../src/stats-protocol.js";
import { test } from "./harness.js";
import { SCREENSHOTS_DIR, THEMES, type PageGlobals } from "./page.js";
import {
  exampleStats,
  openStats,
  postedCount,
  sendStats,
  waitForStatsPosted,
} from "./stats-data.js";

/** `n` traces in which `role` keeps `kept` and drops `dropped`, an hour apart from `start` (none: untimed). */
function fold(sets: readonly [number, string[], string[]][], start?: number): PaletteStats {
  const stats = new PaletteStats();
  let t = 0;
  for (const [n, kept, dropped] of sets)
    for (let i = 0; i < n; i++) {
      const result = validateTrace({
        ...(start === undefined ? {} : { ts: new Date(start + 3_600_000 * t++).toISOString() }),
        trace: [{ stage: "role", action: "select", kept, dropped, added: [], reinstated: [] }],
        tools: kept,
      });
      if ("problem" in result) throw new Error(result.problem);
      stats.add(result.trace);
    }
  return stats;
}

/** The view of OLD against NEW, as the host makes it. */
function compared(
  old: PaletteStats,
  now: PaletteStats,
  against: readonly string[] = ["logs/before.jsonl"],
): ComparisonView {
  return comparisonView(against, compareStats(old, now), { old: old.timeline, new: now.timeline });
}

/** ask_human taken away by role in 8 of 10 turns; sql given back in 3; one tool on each side only; OLD on 10 March, NEW on the 12th. */
function example(): ComparisonView {
  return compared(
    fold(
      [
        [10, ["search", "ask_human", "legacy_<b>x</b>"], ["sql"]],
        [2, ["search", "ask_human", "sql"], []],
      ],
      Date.UTC(2025, 2, 10, 9),
    ),
    fold(
      [
        [8, ["search", "report\u202eevil"], ["ask_human", "sql"]],
        [4, ["search", "ask_human", "sql"], []],
      ],
      Date.UTC(2025, 2, 12, 9),
    ),
  );
}

test("stats: Compare with… asks the host, then shows the changes first, biggest change first, with both rates", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.waitForSelector('[data-action="compare"]');
  await page.locator('[data-action="compare"]').focus();
  await page.keyboard.press("Enter");
  const asked = await waitForStatsPosted(page, "compare");
  await sendStats(page, { type: "comparison", requestId: asked.requestId, view: example() });
  await page.waitForSelector(".changes tbody tr");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "comparison-title");
  const rows = await page
    .locator(".changes tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.children].map((cell) => (cell as HTMLElement).innerText.trim())),
    );
  assert.deepEqual(rows[0], [
    "ask_human",
    "100% of 12 turns",
    "33% of 12 turns",
    "",
    "−66.7 pts",
    "<0.001",
    "role 0% → 67%",
  ]);
  assert.equal(rows[1]![0], "sql");
  // The comparison comes before the stages: changes first.
  const order = await page.evaluate(() => {
    const changes = document.querySelector(".comparison")!;
    const stages = document.querySelector(".stages")!;
    return changes.compareDocumentPosition(stages) & Node.DOCUMENT_POSITION_FOLLOWING;
  });
  assert.ok(order);
  assert.match(await page.locator(".comparison").innerText(), /Only in NEW: report/);
  assert.equal(await page.locator(".comparison b, .comparison script").count(), 0);
  // Copy as Markdown and Save as CSV then export the comparison too.
  for (const [action, type] of [
    ["copy", "copyMarkdown"],
    ["csv", "saveCsv"],
  ] as const) {
    const before = await postedCount(page);
    await page.locator(`[data-action="${action}"]`).click();
    const asked = await waitForStatsPosted(page, type, before);
    assert.equal(asked.comparison, true);
  }
  await page.close();
});

test("stats: an empty side is said plainly, with no changes table", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.locator('[data-action="compare"]').click();
  const asked = await waitForStatsPosted(page, "compare");
  const empty = compared(new PaletteStats(), fold([[1, ["a"], []]]), ["logs/none"]);
  await sendStats(page, { type: "comparison", requestId: asked.requestId, view: empty });
  await page.waitForSelector(".comparison .warning");
  assert.equal(
    await page.locator(".comparison .warning").innerText(),
    "OLD has no traces: nothing to compare.",
  );
  assert.equal(await page.locator(".changes").count(), 0);
  await page.close();
});

test("stats: a comparison of many tools draws the first 500 and says how many more there are", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.locator('[data-action="compare"]').click();
  const asked = await waitForStatsPosted(page, "compare");
  const side = { seen: 10, final: 5, forced: 0, rate: 0.5 };
  const tools = Array.from({ length: 600 }, (_, i) => ({
    name: `tool_${i}`,
    old: side,
    new: side,
    points: 0,
    stage: null,
    p: 1,
  }));
  const view = { ...example(), tools };
  await sendStats(page, { type: "comparison", requestId: asked.requestId, view });
  await page.waitForSelector(".changes tbody tr");
  assert.equal(await page.locator(".changes tbody tr").count(), 500);
  assert.match(await page.locator(".comparison").innerText(), /… and 100 more tools, each in/);
  await page.close();
});

for (const theme of Object.keys(THEMES)) {
  test(`stats: comparison screenshot, ${theme} theme`, async (browser) => {
    const page = await openStats(browser, { theme, height: 900 });
    await sendStats(page, { type: "stats", view: await exampleStats() });
    await page.locator('[data-action="compare"]').click();
    const asked = await waitForStatsPosted(page, "compare");
    await sendStats(page, { type: "comparison", requestId: asked.requestId, view: example() });
    await page.waitForSelector(".changes tbody tr");
    await page.evaluate(() => document.fonts.ready);
    await mkdir(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `stats-compare-${theme}.png`) });
    await page.close();
  });
}

for (const theme of ["dark", "light"] as const) {
  test(`stats: comparison at 380 px with a tool's traces on each side, ${theme} theme`, async (browser) => {
    const page = await openStats(browser, { theme, width: 380, height: 1400 });
    await sendStats(page, { type: "stats", view: await exampleStats() });
    await page.locator('[data-action="compare"]').click();
    const asked = await waitForStatsPosted(page, "compare");
    await sendStats(page, { type: "comparison", requestId: asked.requestId, view: example() });
    await page.waitForSelector(".changes tbody tr");
    await pickSql(page, () => page.locator('.changes button[data-tool="sql"]').click());
    await page.waitForSelector('.missing[data-side="NEW"] .missing-group');
    await page.evaluate(() => document.fonts.ready);
    await mkdir(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({
      path: join(SCREENSHOTS_DIR, `stats-compare-narrow-${theme}.png`),
      fullPage: true,
    });
    // The comparison is no wider than the view: its table scrolls sideways in its own box.
    assert.ok(await page.evaluate(() => document.querySelector(".comparison")!.scrollWidth <= 380));
    await page.close();
  });
}

test("stats: a compared tool, picked by keyboard, lists the traces that lost it on each side; one opens in the trace panel", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.locator('[data-action="compare"]').click();
  const asked = await waitForStatsPosted(page, "compare");
  await sendStats(page, { type: "comparison", requestId: asked.requestId, view: example() });
  await page.waitForSelector(".changes tbody tr");
  await pickSql(page, () => page.keyboard.press("Enter"));
  await page.waitForSelector('.missing[data-side="NEW"] .missing-group');
  assert.equal(await page.evaluate(() => document.activeElement?.id), "missing-title-old");
  assert.match(
    await page.locator('.missing[data-side="OLD"]').innerText(),
    /^OLD: Where sql went\n+Missing in 83% of the 12 traces that name it \(10\)\.\n+role — 100% \(10 traces, first 1 listed\)\n+\S* ?logs\/before\.jsonl:3/,
  );
  assert.match(
    await page.locator('.missing[data-side="NEW"] h2').innerText(),
    /^NEW: Where sql went$/,
  );
  const opening = await postedCount(page);
  await page.locator('.missing[data-side="NEW"] button[data-ref="2"]').focus();
  await page.keyboard.press("Enter");
  assert.deepEqual(await waitForStatsPosted(page, "openTrace", opening), {
    type: "openTrace",
    ref: 2,
    tool: "sql",
  });
  await page.close();
});

/** Picks sql with `press` and answers both sides' requests: 10 of OLD's traces lost it, 8 of NEW's. */
async function pickSql(page: Page, press: () => Promise<void>): Promise<void> {
  const before = await postedCount(page);
  await page.locator('.changes button[data-tool="sql"]').focus();
  await press();
  await waitForStatsPosted(page, "missing", before + 1);
  const requests = (await page.evaluate(
    (n) => (globalThis as unknown as PageGlobals).__posted.slice(n),
    before,
  )) as unknown as Extract<FromStatsView, { type: "missing" }>[];
  assert.deepEqual(requests.map((r) => [r.tool, r.side]).sort(), [
    ["sql", "new"],
    ["sql", "old"],
  ]);
  for (const request of requests)
    await sendStats(page, {
      type: "missing",
      requestId: request.requestId,
      tool: "sql",
      groups: [
        {
          stage: "role",
          failed: false,
          total: request.side === "old" ? 10 : 8,
          traces: [
            {
              ref: request.side === "old" ? 1 : 2,
              file: `logs/${request.side === "old" ? "before" : "after"}.jsonl`,
              line: 3,
              time: null,
              id: null,
            },
          ],
        },
      ],
    });
}
