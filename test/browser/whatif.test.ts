import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, openWhatIf, posted, send, waitForPosted } from "./page.js";
import { EXAMPLE, load, showFixture, whatIfResult } from "./reports.js";

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
  assert.match(
    changed[0]!,
    /^allowlistselectdisabled.*added only in the unmodified run: final_answer/,
  );
  assert.match(await page.locator(".compare-summary").innerText(), /Final loses final_answer/);
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
      document.querySelector(".status")?.textContent === "This what-if is not a valid fixture: x",
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
    () => document.querySelector(".status")?.textContent === "Saved weather.whatif.turn.json.",
  );

  await page.locator('[data-action="copy"]').click();
  const copy = await waitForPosted(page, "copyMarkdown");
  // The page names the run it shows; the host builds the text (issue 8, finding 6).
  assert.deepEqual(copy, { type: "copyMarkdown", requestId: copy.requestId, run: "whatIf" });
  await send(page, {
    type: "reply",
    requestId: copy.requestId,
    ok: true,
    message: "Copied the waterfall as Markdown.",
  });
  await page.waitForFunction(
    () => document.querySelector(".status")?.textContent === "Copied the waterfall as Markdown.",
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
