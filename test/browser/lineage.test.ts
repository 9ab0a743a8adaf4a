import assert from "node:assert/strict";
import { toolLineage } from "../../src/core/lineage.js";
import { runFixture } from "../../src/core/run-fixture.js";
import type { ToWebview } from "../../src/protocol.js";
import { test } from "./harness.js";
import { openPanel, send, type PageGlobals } from "./page.js";
import { EXAMPLE, load, showFixture, showLogged } from "./reports.js";

test("lineage: clicking a chip answers in one sentence and marks the tool in every row", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  const report = runFixture(fixture);
  await send(page, showFixture(fixture, report));
  await page
    .locator('.stage-row[data-stage="role"] .chip-dropped[data-tool="final_answer"]')
    .click();
  const answer = page.locator("#lineage-answer");
  const expected = toolLineage(report, "final_answer").sentence.replace(/`/g, "");
  assert.equal(
    (await answer.innerText()).replace(/\s+Reveal in fixture$/, ""),
    `final_answer: ${expected}`,
  );
  assert.match(expected, /^dropped by role \(.+\), re-added by allowlist/);
  const cells = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".stage-row .cell"), (cell) =>
      cell.className.replace("cell ", ""),
    ),
  );
  assert.deepEqual(cells, ["cell-kept", "cell-kept", "cell-dropped", "cell-absent", "cell-added"]);
  assert.equal(await page.locator('.chip.is-selected[aria-pressed="true"]').count(), 4);
  const state = (await page.evaluate(() => (globalThis as unknown as PageGlobals).__state)) as {
    selectedTool: string;
    source: string;
  };
  assert.equal(state.selectedTool, "final_answer");
  assert.equal(state.source, "file:///work/weather.turn.json");
  await page.close();
});

test("lineage: typing a name (any case) and Enter answers; an unknown name says so", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  const input = page.locator("#lineage-input");
  await input.fill("SQL");
  await input.press("Enter");
  await page.waitForSelector('.chip.is-selected[data-tool="sql"]');
  assert.match(
    await page.locator("#lineage-answer").innerText(),
    /^sql: dropped by intent \(.+\); not in the final palette\./,
  );
  await input.fill("nope");
  await input.press("Enter");
  await page.waitForFunction(() =>
    document.querySelector("#lineage-answer")?.textContent?.includes("is not a tool of this run"),
  );
  await page.close();
});

test("lineage: Reveal in fixture asks the host to show the tool", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.locator('.chip[data-tool="sql"]').first().click();
  await page.locator('[data-action="reveal"]').click();
  const messages = await page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  assert.deepEqual(messages.at(-1), { type: "revealTool", tool: "sql" });
  await page.close();
});

test("matrix: the toggle shows tools × stages with each cell's state, and is kept in the UI state", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.locator('[data-action="matrix"]').click();
  await page.waitForSelector(".matrix-table");
  const row = await page.evaluate(() => {
    const tr = Array.from(document.querySelectorAll(".matrix-table tbody tr")).find(
      (r) => r.querySelector("th")?.textContent === "final_answer",
    )!;
    return Array.from(tr.querySelectorAll("td"), (td) => td.className);
  });
  assert.deepEqual(row, ["cell-kept", "cell-kept", "cell-dropped", "cell-absent", "cell-added"]);
  assert.equal(
    (
      (await page.evaluate(() => (globalThis as unknown as PageGlobals).__state)) as {
        matrix: boolean;
      }
    ).matrix,
    true,
  );
  assert.equal(await page.locator(".waterfall").count(), 0);
  await page.close();
});

test("state: a restored panel keeps the selected tool, the matrix toggle and the what-if, and re-asks the host for data", async (browser) => {
  const fixture = await load(EXAMPLE);
  const page = await openPanel(browser, {
    state: {
      source: "file:///work/weather.turn.json",
      selectedTool: "sql",
      scrollY: 0,
      matrix: false,
      edit: { enabled: { policy: false } },
    },
  });
  await send(page, showFixture(fixture));
  await page.waitForSelector('.chip.is-selected[data-tool="sql"]');
  assert.equal(await page.locator("#lineage-input").inputValue(), "sql");
  const messages = await page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  assert.deepEqual(
    messages.map((m) => m.type),
    ["ready", "whatIf"],
  );
  assert.deepEqual((messages[1] as { edit: unknown }).edit, { enabled: { policy: false } });
  await page.close();
});

test("problems: an invalid fixture shows file:line:col and the message, nothing else", async (browser) => {
  const page = await openPanel(browser);
  await send(page, {
    type: "problems",
    file: "/ws/bad.turn.json",
    source: "file:///ws/bad.turn.json",
    problems: [
      {
        severity: "error",
        file: "/ws/bad.turn.json",
        line: 3,
        column: 15,
        message: 'unknown stage kind "intnet"',
      },
    ],
  });
  await page.waitForSelector(".problems");
  assert.equal(
    await page.locator(".problem").textContent(),
    '/ws/bad.turn.json:3:15 error: unknown stage kind "intnet"',
  );
  assert.equal(await page.locator(".waterfall").count(), 0);
  assert.equal(await page.locator(".toolbar").isVisible(), false);
  await page.close();
});

test("protocol: a malformed host message is ignored and logged", async (browser) => {
  const page = await openPanel(browser);
  const warnings: string[] = [];
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  // Deliberately not ToWebview messages: what a buggy or hostile host might post.
  await send(page, { type: "show", view: { report: { trace: "nope" } } } as unknown as ToWebview);
  await send(page, { type: "launch-missiles" } as unknown as ToWebview);
  await page.waitForFunction(() => true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(await page.locator(".waterfall").count(), 0);
  assert.deepEqual(warnings, [
    'palette-inspector: ignored a malformed or unknown message from the host (type "show")',
    'palette-inspector: ignored a malformed or unknown message from the host (type "launch-missiles")',
  ]);
  await page.close();
});

test("origin: a logged trace links back to its log line", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showLogged(runFixture(await load(EXAMPLE)), 42, 6));
  const link = page.locator('[data-action="open-source"]');
  assert.equal((await link.innerText()).trim(), "Open agent.log at line 42");
  // The one numbering of the Selection Traces view: index 6 is #7.
  assert.match(await page.locator(".header .origin").innerText(), /^Logged trace #7, read-only — /);
  assert.equal(
    await page.locator('.header [data-stat="time"]').count(),
    0,
    "a logged trace was not run here: no run time",
  );
  await link.click();
  const messages = await page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  assert.deepEqual(messages.at(-1), { type: "openSource", compared: false });
  await page.close();
});

test("origin: a turn received over OpenTelemetry says so, with no log line to open", async (browser) => {
  const page = await openPanel(browser);
  const logged = showLogged(runFixture(await load(EXAMPLE)), 0, 2);
  if (logged.type !== "show") throw new Error("not a show message");
  const report = { ...logged.view.report, origin: { kind: "received", index: 2 } as const };
  await send(page, {
    ...logged,
    view: { ...logged.view, report: { ...report, file: "otlp://live/3" } },
  });
  await page.waitForSelector(".header .origin");
  assert.equal(await page.locator(".header h1").innerText(), "Live turn #3");
  assert.equal(
    await page.locator(".header .origin").innerText(),
    "Received over OpenTelemetry, read-only: no log line to open",
  );
  assert.equal(await page.locator('[data-action="open-source"]').count(), 0);
  await page.close();
});

test("lineage: a tool the host selects is the one named in the tool-name field", async (browser) => {
  const page = await openPanel(browser);
  const message = showFixture(await load(EXAMPLE));
  if (message.type !== "show") throw new Error("not a show message");
  await send(page, { ...message, view: { ...message.view, selectedTool: "delete_rows" } });
  await page.waitForSelector('.chip.is-selected[data-tool="delete_rows"]');
  assert.equal(await page.locator("#lineage-input").inputValue(), "delete_rows");
  await page.close();
});
