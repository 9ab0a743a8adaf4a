import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { reportFromLoggedTrace } from "../../src/core/traces/report.js";
import { validateTrace } from "../../src/core/traces/trace.js";
import type { ToWebview } from "../../src/protocol.js";
import { test } from "./harness.js";
import { openPanel, SCREENSHOTS_DIR, send, waitForPosted } from "./page.js";

const HOSTILE = "<img src=x onerror=alert(1)>[x](command:evil)";

function debugView(stale: boolean, session = "agent"): ToWebview {
  const found = validateTrace({
    trace: [
      {
        stage: "lazy",
        action: "select",
        kept: ["a"],
        dropped: ["b"],
        detail: "routed to 1 name",
      },
    ],
    tools: ["a"],
  });
  if (!("trace" in found)) throw new Error(found.problem);
  const report = reportFromLoggedTrace(
    found.trace,
    { kind: "debug", session, frame: "turn (agent.py:52)", expression: "result" },
    "agent.py",
    "",
  );
  return {
    type: "show",
    view: {
      report,
      levers: null,
      source: null,
      compared: null,
      whatIf: null,
      turn: null,
      failed: [],
      stale,
    },
  };
}

test("debug value: the header names session, frame and expression; stale is shown; the buttons ask the host", async (browser) => {
  const page = await openPanel(browser);
  await send(page, debugView(false, HOSTILE));
  await page.waitForSelector(".debug-origin");
  assert.equal(
    await page.locator(".debug-origin p").first().textContent(),
    `Read from the debug session ${HOSTILE}, frame turn (agent.py:52), expression result`,
  );
  assert.equal(await page.locator(".debug-origin img").count(), 0, "debuggee text stays text");
  assert.equal(await page.locator(".tag-stale").count(), 0);
  assert.equal(await page.locator('.header [data-stat="time"]').count(), 0, "not run here");
  for (const action of ["refresh", "turnIntoFixture", "captureTurn", "compare"] as const) {
    await page.locator(`.debug-origin [data-action="${action}"]`).click();
    assert.deepEqual(await waitForPosted(page, "debugAction"), { type: "debugAction", action });
  }
  // Its stages are known only from the value read: said so, not "logged".
  const row = await page.locator('.stage-row[data-stage="lazy"] .row-head').innerText();
  assert.match(row, /read from the debuggee/);
  assert.doesNotMatch(row, /logged/);
  // Read-only: no what-if, no saving a variant.
  assert.equal(await page.locator(".whatif").isVisible(), false);

  await send(page, debugView(true));
  await page.locator(".tag-stale").waitFor({ state: "visible" });
  assert.equal(
    await page.locator(".stale-note").textContent(),
    "The program has moved on since this value was read. Pause where it is in scope and Refresh.",
  );
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, "debug-stale.png") });
});
