// The points of "the inspector as a new user meets it", one test each, named by number.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { runFixture } from "../../src/core/run-fixture.js";
import { test } from "./harness.js";
import { openPanel, openWhatIf, screenshot, send, THEMES, waitForPosted } from "./page.js";
import {
  EVERY_ACTION,
  EXAMPLE,
  largeFixture,
  load,
  showFixture,
  showLogged,
  whatIfResult,
} from "./reports.js";

const texts = (page: Page, selector: string) =>
  page.evaluate(
    (s) => Array.from(document.querySelectorAll(s), (e) => (e.textContent ?? "").trim()),
    selector,
  );

test("a logged stage row says 'logged' once", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showLogged(runFixture(await load(EXAMPLE)), 19, 3));
  await page.waitForSelector(".stage-row");
  const row = page.locator('.stage-row[data-stage="intent"]');
  const text = await row.locator(".row-head").innerText();
  assert.equal(text.match(/logged/g)?.length, 1, text);
  await page.close();
});

test("what-if feedback where the user works: a summary beside the levers links to the comparison; changed rows are marked", async (browser) => {
  const page = await openPanel(browser, { height: 700 });
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  assert.equal(await page.locator(".whatif-summary").isVisible(), false, "nothing moved yet");
  await page.locator('[data-lever="stage:allowlist"]').click();
  const request = await waitForPosted(page, "whatIf");
  await send(page, whatIfResult(fixture, request.edit, request.requestId));
  await page.waitForSelector(".comparison");
  const summary = page.locator("#whatif .whatif-summary");
  assert.match(
    (await summary.innerText()).trim(),
    /^1 stage decides differently; final loses final_answer\. +See the comparison$/,
  );
  assert.deepEqual(
    await page.evaluate(() =>
      Array.from(
        document.querySelectorAll(".stage-row.is-changed"),
        (r) => (r as HTMLElement).dataset.stage,
      ),
    ),
    ["allowlist"],
  );
  assert.equal(await page.locator('.stage-row[data-stage="allowlist"] .tag-changed').count(), 1);
  await summary.locator('[data-action="show-comparison"]').click();
  assert.equal(
    await page.evaluate(() => document.activeElement?.classList.contains("comparison")),
    true,
  );
  assert.ok(await page.locator(".comparison").isVisible());
  await page.close();
});

test("Where did X go? answers as you type, suggests the run's tool names, and says 'did you mean' for a typo", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".stage-row");
  await page.waitForFunction(() => document.querySelectorAll("#lineage-names option").length > 0);
  const options = await page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLOptionElement>("#lineage-names option"),
      (o) => o.value,
    ),
  );
  assert.deepEqual(options, ["search", "get_weather", "sql", "delete_rows", "final_answer"]);
  const input = page.locator("#lineage-input");
  await input.pressSequentially("sql", { delay: 20 });
  // No Enter: the answer follows the typing.
  await page.waitForFunction(() =>
    document.querySelector("#lineage-answer")?.textContent?.startsWith("sql: dropped by intent"),
  );
  await input.fill("");
  await input.pressSequentially("get_wether", { delay: 20 });
  const suggestion = page.locator('#lineage-answer [data-action="suggestion"]');
  await suggestion.waitFor();
  assert.match(
    await page.locator("#lineage-answer").innerText(),
    /is not a tool of this run\. Did you mean get_weather\?$/,
  );
  await suggestion.click();
  await page.waitForSelector('.chip.is-selected[data-tool="get_weather"]');
  assert.equal(await input.inputValue(), "get_weather");
  await page.close();
});

test("matrix: the header row and tool column stay in view, a legend explains the marks, and the page is the only scroll box", async (browser) => {
  const page = await openPanel(browser, { width: 700, height: 500 });
  await send(page, showFixture(await load(largeFixture(120, 12), "large.turn.json")));
  await page.locator('[data-action="matrix"]').click();
  await page.waitForSelector(".matrix-table");
  assert.match(
    await page.locator(".matrix-legend").innerText(),
    /kept[\s\S]*dropped here[\s\S]*added here[\s\S]*reinstated[\s\S]*forced choice/,
  );
  const scrollBoxes = await page.evaluate(
    () =>
      Array.from(document.querySelectorAll(".matrix, .matrix *")).filter((e) => {
        const style = getComputedStyle(e);
        return /auto|scroll/.test(style.overflowY + style.overflowX);
      }).length,
  );
  assert.equal(scrollBoxes, 0);
  await page.evaluate(() => window.scrollTo(400, 1500));
  const stuck = await page.evaluate(() => {
    const head = document
      .querySelector(".matrix-table thead th:nth-child(3)")!
      .getBoundingClientRect();
    const tool = document
      .querySelector(".matrix-table tbody tr:nth-child(40) th")!
      .getBoundingClientRect();
    return { headTop: Math.round(head.top), toolLeft: Math.round(tool.left) };
  });
  assert.deepEqual(stuck, { headTop: 0, toolLeft: 0 });
  await screenshot(page, "webview-matrix-scrolled.png");
  await page.close();
});

test("waterfall rows: the stage name once, reasons without hovering, Show fewer, and chips in offered order", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await page.waitForSelector(".stage-row");
  assert.deepEqual(await texts(page, '.stage-row[data-stage="intent"] .stage-kind'), []);
  const why = await texts(
    page,
    '.stage-row[data-stage="policy"] .why li, .stage-row[data-stage="intent"] .why li',
  );
  assert.ok(
    why.some((line) => /^sql: /.test(line)),
    why.join(" | "),
  );
  assert.deepEqual(await texts(page, '.stage-row[data-stage="intent"] .group-kept .chip'), [
    "search",
    "get_weather",
    "final_answer",
  ]);
  await page.close();

  const large = await openPanel(browser);
  await send(large, showFixture(await load(largeFixture(200, 4), "large.turn.json")));
  const group = large.locator('.stage-row[data-stage="stage_00"] .group-kept');
  await group.locator(".expander", { hasText: "more" }).click();
  // The click redraws the group; wait for the thirteenth chip instead of counting at once.
  await group.locator(".chip").nth(12).waitFor();
  assert.ok((await group.locator(".chip").count()) > 12);
  await group.locator(".expander", { hasText: "Show fewer" }).click();
  await group.locator(".chip").nth(12).waitFor({ state: "detached" });
  assert.equal(await group.locator(".chip").count(), 12);
  assert.match(await group.locator(".expander").innerText(), /^\+\d+ more$/);
  const folded = large.locator('.stage-row[data-stage="stage_00"] details.why-more');
  await folded.locator("summary").click();
  await folded.locator("li").nth(4).waitFor();
  assert.ok((await folded.locator("li").count()) > 4);
  await large.close();
});

test("the header shows the query and role; stats, the what-if badge and table headers do not wrap at 376 px", async (browser) => {
  for (const theme of Object.keys(THEMES)) {
    const page = await openPanel(browser, { width: 376, height: 900, theme });
    const fixture = await load(EXAMPLE);
    await send(page, showFixture(fixture));
    await page.waitForSelector(".stage-row");
    assert.deepEqual(await texts(page, ".header .turn .stat"), [
      "Query: what's the weather in Lyon?",
      "Role: analyst",
    ]);
    await openWhatIf(page);
    await page.locator('[data-lever="stage:allowlist"]').click();
    const request = await waitForPosted(page, "whatIf");
    await send(page, whatIfResult(fixture, request.edit, request.requestId));
    await page.waitForSelector(".comparison");
    const wrapped = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll(".header .stats .stat, .tag-variant, .compare-table thead th"),
      )
        .filter((e) => {
          const line = parseFloat(getComputedStyle(e).lineHeight) || 18;
          return e.getBoundingClientRect().height > line * 1.6;
        })
        .map((e) => e.textContent),
    );
    assert.deepEqual(wrapped, []);
    await screenshot(page, `webview-376-${theme}.png`);
    await page.close();
  }
});

test("a failing expectation is listed and the rows where the run differs are marked", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load({
    ...EXAMPLE,
    expect: {
      names: ["search", "get_weather", "sql", "final_answer"],
      actions: { role: "abstain" },
    },
  });
  await send(page, showFixture(fixture));
  await page.waitForSelector(".banner-expect");
  assert.deepEqual(await texts(page, ".banner-expect li"), [
    "final names: expected [search, get_weather, sql, final_answer], got [search, get_weather, final_answer] — at intent",
    "stage 'role' did select, not abstain — at role",
  ]);
  assert.deepEqual(
    await page.evaluate(() =>
      Array.from(
        document.querySelectorAll(".stage-row.is-failed"),
        (r) => (r as HTMLElement).dataset.stage,
      ),
    ),
    ["intent", "role"],
  );
  await page.close();
});

test("wording: proper plurals, no doubled names, a plain forced-tool placeholder", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EVERY_ACTION);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  // The levers are drawn when the section opens; read them once they are there.
  await page.locator('[data-lever="stage:lazy"]').waitFor();
  const labels = await texts(page, "[data-lever^='stage:']");
  assert.ok(labels.includes("lazy"), labels.join(" | "));
  assert.ok(labels.includes("flaky (scripted)"), labels.join(" | "));
  assert.equal(
    await page.locator('[data-lever="forced:forced"]').getAttribute("placeholder"),
    "Type a tool name to force it; leave empty to force nothing",
  );
  await page.locator('[data-lever="stage:lazy"]').click();
  const request = await waitForPosted(page, "whatIf");
  await send(page, whatIfResult(fixture, request.edit, request.requestId));
  await page.waitForSelector(".comparison");
  const all = await page.locator("body").innerText();
  assert.doesNotMatch(all, /\(s\)|\b1 tools\b|\b1 stages\b/);
  assert.match(await page.locator(".compare-summary").innerText(), /^\d+ stages? differs?\./);
  await page.close();
});
