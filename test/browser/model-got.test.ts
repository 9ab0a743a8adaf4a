import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { RunReport } from "../../src/core/report.js";
import { test } from "./harness.js";
import { openPanel, send, THEMES, type PageGlobals } from "./page.js";
import { otelTurns, showTrace, XSS } from "./reports.js";

async function showTurn(page: Page, report: RunReport): Promise<void> {
  await send(page, showTrace(report));
  await page.waitForSelector(".waterfall .stage-row");
}

/** Each row of a list: the tool's name, and its mark or warning text. */
function rows(page: Page, list: string) {
  return page.evaluate(
    (selector) =>
      Array.from(document.querySelectorAll(`.model-got ${selector} > li`), (li) => [
        li.querySelector(".link")?.textContent ?? "",
        li.querySelector(".tag, .model-warning")?.textContent ?? "",
      ]),
    list,
  );
}

test("model: a turn's section lists the tools offered against the final palette, each difference marked, and warns on an unoffered call", async (browser) => {
  const page = await openPanel(browser);
  const [, second, third] = otelTurns();
  await showTurn(page, third!);
  assert.equal(await page.locator(".model-got h2").innerText(), "What the model got");
  assert.equal(
    await page.locator(".model-got .model-call").innerText(),
    "Model call: gpt-4o, span 58fe64e7f01ea217 OTel GenAI",
  );
  assert.equal(
    await page.locator(".model-got .model-tool-choice").innerText(),
    "Tool choice: not recorded (OTel GenAI)",
  );
  assert.deepEqual(await rows(page, ".model-offered"), [
    ["final_answer", ""],
    ["send_email", "lost after selection"],
  ]);
  assert.deepEqual(await rows(page, ".model-called"), [
    ["send_email", "called, but not offered to the model"],
  ]);
  assert.equal(
    await page.locator('.model-called [data-unoffered="true"] .codicon-warning').count(),
    1,
  );

  await showTurn(page, second!);
  assert.deepEqual(await rows(page, ".model-offered"), [
    ["get_weather", ""],
    ["final_answer", ""],
    ["search", "added after selection"],
  ]);
  assert.deepEqual(await rows(page, ".model-called"), [
    ["get_weather", ""],
    ["search", ""],
  ]);
  assert.equal(await page.locator(".model-warning").count(), 0);
  await page.close();
});

test("model: no joined call is said plainly; a trace not from OpenTelemetry shows no section", async (browser) => {
  const page = await openPanel(browser);
  const [first] = otelTurns();
  await showTurn(page, { ...first!, model: null });
  assert.match(await page.locator(".model-got .model-none").innerText(), /^No model call joined: /);
  assert.equal(await page.locator(".model-got ul, .model-got ol").count(), 0);
  const logged: RunReport = { ...first! };
  delete (logged as { model?: unknown }).model;
  await showTurn(page, logged);
  await page.waitForSelector(".model-sees");
  assert.equal(await page.locator(".model-got").count(), 0);
  await page.close();
});

test("model: a tool in the section is one Tab stop that asks where it went with Enter", async (browser) => {
  const page = await openPanel(browser);
  await showTurn(page, otelTurns()[2]!);
  const link = page.locator('.model-called .link[data-tool="send_email"]');
  await page.locator('.model-offered .link[data-tool="send_email"]').focus();
  await page.keyboard.press("Tab");
  assert.equal(await link.evaluate((e) => e === document.activeElement), true);
  await page.keyboard.press("Enter");
  await page.waitForSelector("#lineage-answer:has-text('send_email')");
  await page.close();
});

test("model: hostile model and tool names from the spans render as literal text", async (browser) => {
  const page = await openPanel(browser);
  const base = otelTurns()[2]!;
  await showTurn(page, {
    ...base,
    model: {
      span_id: XSS[1]!,
      model: XSS[0]!,
      offered: XSS.slice(2, 5),
      called: [XSS[7]!],
      tool_choice: XSS[6]!,
      convention: "openinference",
      final_not_offered: base.names,
      offered_not_final: XSS.slice(2, 5),
      called_not_offered: [XSS[7]!],
    },
  });
  const result = await page.evaluate(() => ({
    pwned: (globalThis as unknown as PageGlobals).__pwned,
    errors: (globalThis as unknown as PageGlobals).__errors,
    injected: document.querySelectorAll(
      "#root img, #root script, #root a[href], [onerror], [onmouseover]",
    ).length,
    call: document.querySelector(".model-call")?.textContent,
  }));
  assert.deepEqual(result, {
    pwned: 0,
    errors: [],
    injected: 0,
    call: `Model call: ${XSS[0]}, span ${XSS[1]} OpenInference`,
  });
  // The forced tool's hostile name, in the tool choice and its warning, is text too.
  assert.equal(
    await page.locator(".model-tool-choice").innerText(),
    `Tool choice: forced ${XSS[6]}`,
  );
  assert.deepEqual(
    (await rows(page, ".model-offered")).map(([name]) => name),
    [...XSS.slice(2, 5), ...base.names],
  );
  await page.close();
});

for (const theme of Object.keys(THEMES))
  test(`model: the marks and the warning take the theme's colours (${theme})`, async (browser) => {
    const page = await openPanel(browser, { theme });
    await showTurn(page, otelTurns()[2]!);
    const colours = await page.evaluate(() => ({
      lost: getComputedStyle(document.querySelector(".tag-lost .codicon")!).color,
      warning: getComputedStyle(document.querySelector(".model-warning .codicon")!).color,
      text: getComputedStyle(document.querySelector(".model-warning")!).color,
      body: getComputedStyle(document.body).color,
    }));
    const rgb = (hex: string) =>
      `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    const vars = THEMES[theme]!;
    assert.equal(colours.lost, rgb(vars.errorForeground!));
    assert.equal(colours.warning, rgb(vars["editorWarning-foreground"]!));
    assert.equal(colours.text, colours.body);
    await page.close();
  });
