import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { compareReports } from "../../src/core/compare.js";
import { reportView } from "../../src/core/report.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { applyWhatIf } from "../../src/core/whatif.js";
import { test } from "./harness.js";
import { openPanel, openWhatIf, send, THEMES, waitForPosted } from "./page.js";
import {
  EVERY_ACTION,
  EXAMPLE,
  FORCED_UNAVAILABLE,
  largeFixture,
  load,
  otelTurns,
  showFixture,
  showLogged,
  showTrace,
  whatIfResult,
} from "./reports.js";

interface AxeResult {
  readonly violations: readonly {
    readonly id: string;
    readonly impact: string | null;
    readonly nodes: readonly { readonly target: unknown; readonly failureSummary?: string }[];
  }[];
}

let axeSource: Promise<string> | null = null;

/** axe-core's serious and critical findings on the page as it stands, one line each. */
async function axe(page: Page): Promise<string[]> {
  axeSource ??= readFile("node_modules/axe-core/axe.min.js", "utf8");
  const source = await axeSource;
  // Evaluated over the protocol, so the page's CSP (nonce'd scripts only) does not stop it.
  await page.evaluate(source);
  await page.evaluate(() => document.fonts.ready);
  const result = await page.evaluate(
    () =>
      (globalThis as unknown as { axe: { run(context: Node): Promise<AxeResult> } }).axe.run(
        document,
      ) as Promise<AxeResult>,
  );
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${v.id} (${v.impact}) at ${JSON.stringify(node.target)}: ${(node.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 240)}`,
      ),
    );
}

/** Each view of the panel, put on screen in an open page. */
const VIEWS: Record<string, (page: Page) => Promise<void>> = {
  waterfall: async (page) => {
    await send(page, showFixture(await load(EVERY_ACTION)));
    await page.waitForSelector(".waterfall .stage-row");
  },
  "what the model got": async (page) => {
    await send(page, showTrace(otelTurns()[2]!));
    await page.waitForSelector(".model-got .model-warning");
  },
  "error banner": async (page) => {
    await send(page, showFixture(await load(FORCED_UNAVAILABLE)));
    await page.waitForSelector(".banner-error");
  },
  lineage: async (page) => {
    await send(page, showFixture(await load(EXAMPLE)));
    await page.locator('.chip[data-tool="final_answer"]').first().click();
    await page.waitForSelector(".lineage-answer code");
  },
  matrix: async (page) => {
    await send(page, showFixture(await load(EXAMPLE)));
    await page.locator('[data-action="matrix"]').click();
    await page.waitForSelector(".matrix-table");
  },
  "what-if with comparison": async (page) => {
    const fixture = await load(EXAMPLE);
    await send(page, showFixture(fixture));
    await openWhatIf(page);
    await page.locator('[data-lever="stage:allowlist"]').click();
    const request = await waitForPosted(page, "whatIf");
    await send(page, whatIfResult(fixture, request.edit, request.requestId));
    await page.waitForSelector(".comparison");
  },
  "logged trace": async (page) => {
    await send(page, showLogged(runFixture(await load(EXAMPLE)), 19, 3));
    await page.waitForSelector(".waterfall .stage-row");
  },
  problems: async (page) => {
    await send(page, {
      type: "problems",
      file: "/ws/bad.turn.json",
      source: null,
      problems: [
        {
          severity: "error",
          file: "/ws/bad.turn.json",
          line: 3,
          column: 5,
          message: "unknown key 'pipline'; did you mean 'pipeline'?",
        },
        {
          severity: "warning",
          file: "/ws/bad.turn.json",
          line: 9,
          column: 12,
          message: "unknown tool 'serch'",
        },
      ],
    });
    await page.waitForSelector(".problems");
  },
  "two traces compared": async (page) => {
    const fixture = await load(EXAMPLE);
    const base = reportView(runFixture(fixture));
    const variant = reportView(
      runFixture(fixture, applyWhatIf(fixture.json, { enabled: { policy: false } })),
    );
    await send(page, {
      type: "show",
      view: {
        report: base,
        levers: null,
        source: null,
        compared: {
          report: variant,
          comparison: compareReports(base, variant),
          names: ["agent.log #3", "agent.log #6"],
          replay: false,
        },
        whatIf: null,
        turn: null,
        failed: [],
      },
    });
    await page.waitForSelector(".compare-table");
  },
  "matrix wider than the panel": async (page) => {
    await page.setViewportSize({ width: 382, height: 700 });
    await send(page, showFixture(await load(largeFixture(12, 9), "large.turn.json")));
    await page.locator('[data-action="matrix"]').click();
    await page.locator(".scroll-cue").waitFor();
  },
};

for (const theme of Object.keys(THEMES)) {
  test(`accessibility: axe finds no serious or critical violation in any view (${theme})`, async (browser) => {
    const found: string[] = [];
    for (const [view, open] of Object.entries(VIEWS)) {
      const page = await openPanel(browser, { theme });
      await open(page);
      found.push(...(await axe(page)).map((line) => `${view}: ${line}`));
      await page.close();
    }
    assert.equal(found.length, 0, `\n${found.join("\n")}`);
  });
}

/** WCAG contrast of two `rgb()`/`rgba()` colours, the foreground blended over the background. */
function contrast(foreground: string, background: string): number {
  const parse = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
  const [br, bg, bb] = parse(background);
  const [fr, fg, fb, fa = 1] = parse(foreground);
  const blend = [fr! * fa + br! * (1 - fa), fg! * fa + bg! * (1 - fa), fb! * fa + bb! * (1 - fa)];
  const lum = (rgb: number[]) => {
    const [r, g, b] = rgb.map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [a, b] = [lum(blend), lum([br!, bg!, bb!])].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
}

test("high contrast: the stage names in 'Where did X go?' are readable in all four theme kinds", async (browser) => {
  for (const theme of Object.keys(THEMES)) {
    const page = await openPanel(browser, { theme });
    await VIEWS.lineage!(page);
    const colours = await page.evaluate(() => {
      const code = document.querySelector(".lineage-answer code")!;
      const style = getComputedStyle(code);
      let background = style.backgroundColor;
      // A transparent code background shows the page's.
      if (/rgba\(.*, 0\)$/.test(background))
        background = getComputedStyle(document.body).backgroundColor;
      return { color: style.color, background };
    });
    const ratio = contrast(colours.color, colours.background);
    assert.ok(
      ratio >= 4.5,
      `${theme}: ${colours.color} on ${colours.background} is ${ratio.toFixed(2)}:1`,
    );
    await page.close();
  }
});
