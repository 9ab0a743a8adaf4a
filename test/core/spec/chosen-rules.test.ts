/**
 * Issue 14, "Two rules the code chose": the spec leaves these open; docs/semantics.md states
 * the engine's choice, and these tests hold the engine to it.
 */
import { describe, expect, it } from "vitest";
import { run } from "./helpers.js";

describe("rules the code chose (docs/semantics.md)", () => {
  it("duplicate offered names: an allowlist re-adds a mandated name once, even when the offered list held it twice", async () => {
    const report = await run({
      offered: ["search", "final_answer", "final_answer"],
      pipeline: [
        { kind: "lazy", allowed_names: ["search"] },
        { kind: "allowlist", always_include: ["final_answer"] },
      ],
    });
    const allowlist = report.trace.find((record) => record.stage === "allowlist")!;
    expect(allowlist.action).toBe("select");
    expect(allowlist.added).toEqual(["final_answer"]);
    expect(report.names).toEqual(["search", "final_answer"]);
  });

  it("capability mode: a scripted select may name a registered tool that was not routed; it is taken from registered and shows as added", async () => {
    const report = await run({
      routing: { registered: ["search", "sql", "get_weather"], entries: [{ content: "search" }] },
      pipeline: [{ kind: "scripted", name: "pick", outcome: { select: ["search", "sql"] } }],
    });
    expect(report.offered).toEqual(["search"]);
    const pick = report.trace.find((record) => record.stage === "pick")!;
    expect(pick.action).toBe("select");
    expect(pick.kept).toEqual(["search"]);
    expect(pick.added).toEqual(["sql"]);
    expect(report.names).toEqual(["search", "sql"]);
  });
});
