// Two runs compared: each side named for what it is, a difference said once where it starts, and
// a comparison that finds nothing says what that proves.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { compareReports } from "../../src/core/compare.js";
import { reportView, type ReportView } from "../../src/core/report.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { applyWhatIf } from "../../src/core/whatif.js";
import type { ToWebview } from "../../src/protocol.js";
import { test } from "./harness.js";
import { openPanel, screenshot, SCREENSHOTS_DIR, send, waitForPosted } from "./page.js";
import { EXAMPLE, load, showFixture, showLogged } from "./reports.js";

const texts = (page: Page, selector: string) =>
  page.evaluate(
    (s) => Array.from(document.querySelectorAll(s), (e) => (e.textContent ?? "").trim()),
    selector,
  );

function compared(
  base: ReportView,
  variant: ReportView,
  names: [string, string],
  replay: boolean,
): ToWebview {
  return {
    type: "show",
    view: {
      report: base,
      levers: null,
      source: null,
      compared: { report: variant, comparison: compareReports(base, variant), names, replay },
      whatIf: null,
      turn: null,
      failed: [],
    },
  };
}

const logged = (report: ReportView, line: number, index: number): ReportView => ({
  ...report,
  origin: { kind: "log", line, index },
  file: "file:///ws/logs/agent.log",
});

test("compare: a trace and its replay that agree say in one line that the replay reproduces the log", async (browser) => {
  const page = await openPanel(browser);
  const run = reportView(runFixture(await load(EXAMPLE)));
  const trace = logged(run, 12, 2);
  await send(page, compared(trace, { ...run }, ["agent.log #3", "replay of agent.log #3"], true));
  await page.waitForSelector(".comparison");
  assert.equal(
    (await page.locator(".compare-summary").innerText()).trim(),
    "The replay reproduces agent.log #3: every stage decides the same.",
  );
  assert.equal(await page.locator(".compare-table").count(), 0, "no table of 'unchanged'");
  assert.equal(await page.locator(".header .tag-variant").innerText(), "replay of agent.log #3");
  await page.close();
});

for (const theme of ["light", "dark"]) {
  test(`compare ${theme}: two traces are named by file and number, and a set handed on is said once`, async (browser) => {
    const page = await openPanel(browser, { theme });
    const fixture = await load(EXAMPLE);
    const base = logged(reportView(runFixture(fixture)), 12, 2);
    // Intent keeps sql here: every later stage hands on a set that differs by it until policy drops it.
    const variant = logged(
      reportView(
        runFixture(
          fixture,
          applyWhatIf(fixture.json, {
            verdicts: { intent: { label: "action", matchedToolKeywords: ["get_weather", "sql"] } },
          }),
        ),
      ),
      40,
      5,
    );
    await send(page, compared(base, variant, ["agent.log #3", "agent.log #6"], false));
    await page.waitForSelector(".compare-table");
    assert.equal(
      await page.locator(".comparison h2").innerText(),
      "Compared: agent.log #3 ↔ agent.log #6",
    );
    // The table names its sides A and B, what differs first; the key above names them in full.
    assert.deepEqual(await texts(page, ".compare-table thead th"), [
      "Stage",
      "What differs",
      "A",
      "B",
    ]);
    assert.deepEqual(await texts(page, ".compare-key > div"), ["Aagent.log #3", "Bagent.log #6"]);
    assert.equal(
      await page.locator(".header .tag-variant").innerText(),
      "compared with agent.log #3",
    );
    const body = await page.locator(".compare-table tbody").innerText();
    assert.equal(body.match(/handed on here only in/g)?.length, 1, body);
    assert.match(body, /handed on here only in B: sql/);
    assert.match(body, /hands on the difference above/);
    assert.doesNotMatch(body, /replay/i);
    // The waterfall marks the same stages: those that decide differently, not those that hand it on.
    assert.deepEqual(
      await page.evaluate(() =>
        Array.from(
          document.querySelectorAll(".stage-row.is-changed"),
          (r) => (r as HTMLElement).dataset.stage,
        ),
      ),
      ["intent", "policy"],
    );
    await screenshot(page, `webview-compare-traces-${theme}.png`);
    await page.close();
  });
}

test("compare: a fixture and a logged trace have Compare… in the toolbar, which asks the host; a comparison has none", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  const button = page.locator('.toolbar [data-action="compare"]');
  await send(page, showFixture(fixture));
  await button.click();
  assert.deepEqual(await waitForPosted(page, "compare"), { type: "compare" });
  await send(page, showLogged(runFixture(fixture), 12, 2));
  assert.equal(await button.isVisible(), true);
  const run = reportView(runFixture(fixture));
  await send(page, compared(logged(run, 12, 2), run, ["agent.log #3", "weather.turn.json"], false));
  await page.waitForSelector(".comparison");
  assert.equal(await button.isVisible(), false);
  await page.close();
});

for (const theme of ["light", "dark", "high-contrast"])
  for (const width of [380, 1440])
    test(`compare ${theme} ${width}: the comparison fits the panel, what differs beside the stage`, async (browser) => {
      const page = await openPanel(browser, { theme, width });
      const fixture = await load(EXAMPLE);
      const base = {
        ...logged(reportView(runFixture(fixture)), 12, 2),
        file: "file:///ws/logs/weather-forecast.turn.agent-run.log",
      };
      const variant = {
        ...logged(
          reportView(
            runFixture(fixture, applyWhatIf(fixture.json, { enabled: { allowlist: false } })),
          ),
          40,
          5,
        ),
        file: "file:///ws/logs/weather-forecast.whatif.turn.agent-run.log",
      };
      const names: [string, string] = [
        "weather-forecast.turn.agent-run.log #3",
        "weather-forecast.whatif.turn.agent-run.log #6",
      ];
      await send(page, compared(base, variant, names, false));
      await page.waitForSelector(".compare-table");
      const widths = await page.evaluate(() => ({
        page: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        table: document.querySelector(".compare-table")!.getBoundingClientRect().right,
      }));
      const wide = await page.evaluate(() =>
        Array.from(document.querySelectorAll("body *"))
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .map((e) => `${e.tagName}.${e.className}`)
          .slice(0, 5),
      );
      assert.ok(widths.scroll <= widths.page, JSON.stringify({ widths, wide }));
      assert.ok(widths.table <= widths.page, JSON.stringify(widths));
      const what = page.locator(".compare-table tr.is-changed .compare-what").first();
      const box = await what.boundingBox();
      assert.ok(box && box.x + box.width <= widths.page, JSON.stringify(box));
      assert.match(await what.innerText(), /only in A: final_answer/);
      await page.locator(".comparison").screenshot({
        path: `${SCREENSHOTS_DIR}/webview-compare-${width}-${theme}.png`,
      });
      await page.close();
    });
