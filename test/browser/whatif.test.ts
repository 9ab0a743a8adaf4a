import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, openWhatIf, posted, screenshot, send, waitForPosted } from "./page.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { EXAMPLE, load, showFixture, showLogged, whatIfResult } from "./reports.js";

test("what-if: turning a stage off re-runs at once, shows the variant and the comparison; Reset goes back", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  await page.locator('[data-lever="stage:allowlist"]').click();
  const request = await waitForPosted(page, "whatIf");
  assert.deepEqual(request.edit, { enabled: { allowlist: false } });
  await send(page, whatIfResult(fixture, request.edit, request.requestId));
  await page.waitForSelector(".comparison");
  assert.match(
    (await page.locator('.stage-row[data-stage="allowlist"]').getAttribute("class")) ?? "",
    /is-disabled/,
  );
  assert.equal(await page.locator(".header .tag-variant").textContent(), "what-if");
  assert.equal(
    await page.locator('.header [data-stat="flow"]').textContent(),
    "Offered 5 → final 2",
  );
  const changed = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".compare-table tr.is-changed"), (tr) => tr.textContent),
  );
  assert.equal(changed.length, 1);
  assert.match(changed[0]!, /^allowlistadded only in A: final_answer.*selectdisabled$/);
  assert.match(
    await page.locator(".compare-summary").innerText(),
    /Final palette: final_answer only in the fixture's run\./,
  );
  await page.locator('[data-action="reset"]').click();
  await page.waitForSelector(".comparison", { state: "detached" });
  assert.doesNotMatch(
    (await page.locator('.stage-row[data-stage="allowlist"]').getAttribute("class")) ?? "",
    /is-disabled/,
  );
  await page.close();
});

test("what-if: role, verdict, forced tool and policy numbers each post the levers moved, and only those", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  const type = async (lever: string, text: string) => {
    const before = (await posted(page)).length;
    const input = page.locator(`[data-lever="${lever}"] input`);
    await input.fill(text);
    await input.press("Enter");
    return waitForPosted(page, "whatIf", before);
  };
  assert.deepEqual((await type("role", "admin")).edit, { role: "admin" });
  assert.deepEqual((await type("verdict:intent:label", "knowledge")).edit, {
    role: "admin",
    verdicts: { intent: { label: "knowledge", matchedToolKeywords: ["get_weather"] } },
  });
  assert.deepEqual((await type("forced:forced", "search")).edit.forcedTools, { forced: "search" });
  assert.deepEqual((await type("policy:policy:budget", "0.5")).edit.policies, {
    policy: { budgetUsd: 0.5 },
  });
  const before = (await posted(page)).length;
  await page.locator('[data-lever="policy:policy:level"]').click();
  await page.locator('[data-lever="policy:policy:level"] vscode-option[value="critical"]').click();
  assert.deepEqual((await waitForPosted(page, "whatIf", before)).edit.policies, {
    policy: { maxSafetyLevel: "critical", budgetUsd: 0.5 },
  });
  assert.deepEqual((await type("role", "analyst")).edit.role, undefined);
  await page.close();
});

test("what-if: a refused what-if shows the host's reason; Save as fixture… and Copy as Markdown post requests and show the replies", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  await openWhatIf(page);
  await page.locator('[data-lever="stage:policy"]').click();
  const request = await waitForPosted(page, "whatIf");
  await send(page, {
    type: "reply",
    requestId: request.requestId,
    ok: false,
    message: "This what-if is not a valid fixture: x",
  });
  await page.waitForFunction(
    () =>
      document.querySelector(".whatif-status")?.textContent ===
      "This what-if is not a valid fixture: x",
  );

  await page.locator('[data-action="save"]').click();
  const save = await waitForPosted(page, "saveVariant");
  assert.deepEqual(save.edit, { enabled: { policy: false } });
  await send(page, {
    type: "reply",
    requestId: save.requestId,
    ok: true,
    message: "Saved weather.whatif.turn.json.",
  });
  await page.waitForFunction(
    () =>
      document.querySelector(".action-status")?.textContent === "Saved weather.whatif.turn.json.",
  );

  await page.locator('[data-action="copy"]').click();
  const copy = await waitForPosted(page, "copyMarkdown");
  // The page names the run it shows; the host builds the text.
  assert.deepEqual(copy, { type: "copyMarkdown", requestId: copy.requestId, run: "whatIf" });
  await send(page, {
    type: "reply",
    requestId: copy.requestId,
    ok: true,
    message: "Copied the waterfall as Markdown.",
  });
  await page.waitForFunction(
    () =>
      document.querySelector(".action-status")?.textContent === "Copied the waterfall as Markdown.",
  );
  await page.close();
});

test("copy: with no what-if, Copy as Markdown asks for the fixture's own waterfall", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.locator('[data-action="copy"]').click();
  assert.equal((await waitForPosted(page, "copyMarkdown")).run, "shown");
  await page.close();
});

test("what-if: a live re-run that carries the what-if draws the variant at once and asks nothing", async (browser) => {
  const edit = { enabled: { allowlist: false } };
  const page = await openPanel(browser, {
    state: { source: null, selectedTool: null, scrollY: 0, matrix: false, edit },
  });
  const fixture = await load(EXAMPLE);
  const ready = await waitForPosted(page, "ready");
  assert.deepEqual(ready.edit, edit, "ready hands the kept what-if to the host");
  const variant = whatIfResult(fixture, edit, 0);
  if (variant.type !== "whatIfResult") throw new Error();
  const show = showFixture(fixture);
  if (show.type !== "show") throw new Error();
  // Record every waterfall the page draws: the unmodified run must never appear.
  await page.evaluate(() => {
    const w = globalThis as unknown as { __drawn: string[] };
    w.__drawn = [];
    new MutationObserver(() => {
      const row = document.querySelector('.stage-row[data-stage="allowlist"]');
      if (row) w.__drawn.push(row.className);
    }).observe(document.body, { childList: true, subtree: true });
  });
  await send(page, {
    type: "show",
    view: {
      ...show.view,
      whatIf: { edit, variant: variant.variant, comparison: variant.comparison },
    },
  });
  await page.waitForSelector(".comparison");
  const drawn = await page.evaluate(() => (globalThis as unknown as { __drawn: string[] }).__drawn);
  assert.ok(drawn.length > 0);
  assert.ok(
    drawn.every((cls) => /is-disabled/.test(cls)),
    `drew ${drawn.join(" | ")}`,
  );
  assert.deepEqual(
    (await posted(page)).map((m) => m.type),
    ["ready"],
  );
  await page.locator('[data-action="reset"]').click();
  await waitForPosted(page, "clearWhatIf");
  await page.close();
});

for (const [width, where, theme] of [
  [1100, "beside the waterfall", "light"],
  [600, "above the waterfall", "dark"],
  [1100, "beside the waterfall", "high-contrast"],
] as const) {
  test(`what-if (${theme}): the toolbar's What-if… opens the levers ${where}, with one hint`, async (browser) => {
    const page = await openPanel(browser, { width, height: 800, theme });
    await send(page, showFixture(await load(EXAMPLE)));
    const toggle = page.locator('.toolbar [data-action="whatif"]');
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await page.locator("#whatif").isVisible(), false);
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    await page.locator('[data-lever="stage:allowlist"]').waitFor();
    const place = await page.evaluate(() => {
      const levers = document.querySelector("#whatif")!.getBoundingClientRect();
      const waterfall = document.querySelector(".waterfall")!.getBoundingClientRect();
      return {
        inAside: document.querySelector("#whatif")!.closest("aside") !== null,
        beside: levers.left >= waterfall.right,
        above: levers.bottom <= waterfall.top,
        top: Math.round(levers.top),
      };
    });
    if (width > 980) {
      assert.ok(place.inAside && place.beside, JSON.stringify(place));
      assert.ok(place.top < 400, `beside the first rows (top ${place.top})`);
    } else assert.ok(!place.inAside && place.above, JSON.stringify(place));
    assert.equal(await page.locator("#whatif > .hint").count(), 1);
    await screenshot(page, `webview-whatif-open-${width}-${theme}.png`, false);
    // By keyboard: Escape in the levers closes them and gives the focus back to the toggle.
    await page.locator('[data-lever="stage:allowlist"]').focus();
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#whatif").isVisible(), false);
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("data-action")),
      "whatif",
    );
    await page.keyboard.press("Enter");
    assert.equal(await page.locator("#whatif").isVisible(), true);
    await page.close();
  });
}

test("what-if: a logged trace has no What-if… button", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showLogged(runFixture(await load(EXAMPLE)), 4, 0));
  await page.waitForSelector(".stage-row");
  assert.equal(await page.locator('[data-action="whatif"]').isVisible(), false);
  assert.equal(await page.locator("#whatif").isVisible(), false);
  await page.close();
});
