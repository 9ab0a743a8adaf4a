import { describe, expect, it } from "vitest";
import { reportView } from "../../src/core/report.js";
import { run } from "./spec/helpers.js";

describe("reportView", () => {
  it("is the report without its tool objects, leaving the report itself whole", async () => {
    const report = await run({ offered: [{ name: "a", schema: { big: true } }] });
    const view = reportView(report);
    expect("tools" in view).toBe(false);
    expect(view).toEqual({ ...report, tools: undefined });
    expect(report.tools).toEqual([{ name: "a", schema: { big: true } }]);
  });
});
