import { formatProblem } from "../core/fixture/problems.js";
import { formatMismatch, type FixtureOutcome } from "./fixture-run.js";

/** JUnit XML as CI systems read it: one testsuite, one testcase per fixture. */
export function junitReport(outcomes: readonly FixtureOutcome[]): string {
  const failures = outcomes.filter((o) => o.status === "failed").length;
  const errors = outcomes.filter((o) => o.status === "invalid").length;
  const time =
    outcomes.reduce((sum, o) => sum + (o.status === "invalid" ? 0 : o.report.durationMs), 0) / 1000;
  const cases = outcomes.map((outcome) => {
    const name = attr(outcome.file);
    const seconds = outcome.status === "invalid" ? 0 : outcome.report.durationMs / 1000;
    const open = `    <testcase classname="palette-inspector" name="${name}" file="${name}" time="${seconds.toFixed(4)}"`;
    if (outcome.status === "passed") return `${open}/>`;
    if (outcome.status === "invalid") {
      const text = outcome.problems
        .filter((p) => p.severity === "error")
        .map(formatProblem)
        .join("\n");
      return `${open}>\n      <error message="invalid fixture" type="InvalidFixture">${text_(text)}</error>\n    </testcase>`;
    }
    const text = outcome.mismatches.map((m) => formatMismatch(outcome.file, m)).join("\n");
    return `${open}>\n      <failure message="${attr(outcome.mismatches[0]!.message)}" type="ExpectationFailed">${text_(text)}</failure>\n    </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="palette-inspector" tests="${outcomes.length}" failures="${failures}" errors="${errors}" time="${time.toFixed(4)}">`,
    `  <testsuite name="palette-inspector check" tests="${outcomes.length}" failures="${failures}" errors="${errors}" skipped="0" time="${time.toFixed(4)}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

/** XML 1.0 forbids most control characters even when escaped; they are shown as \uXXXX. */
function text_(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}

function attr(text: string): string {
  return text_(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}
