/**
 * Two rules the code chose: the spec leaves these open; docs/semantics.md states
 * the engine's choice (§4 and §5), and these tests hold the engine to it.
 */
import { describe, expect, it } from "vitest";
import { run } from "./helpers.js";

describe("rules the code chose (docs/semantics.md)", () => {
  it("§4 duplicate offered names: an allowlist re-adds a mandated name once, as the first offered tool of that name", async () => {
    const report = await run({
      offered: [
        "search",
        { name: "final_answer", summary: "first" },
        { name: "final_answer", summary: "second" },
      ],
      pipeline: [
        { kind: "lazy", allowed_names: ["search"] },
        { kind: "allowlist", always_include: ["final_answer"] },
      ],
    });
    const allowlist = report.trace.find((record) => record.stage === "allowlist")!;
    expect(allowlist.action).toBe("select");
    expect(allowlist.added).toEqual(["final_answer"]);
    expect(report.names).toEqual(["search", "final_answer"]);
    expect(report.tools).toEqual(["search", { name: "final_answer", summary: "first" }]);
  });

  it("§5 scripted select in capability mode: a registered tool that was not routed is taken from registered and shows as added", async () => {
    const report = await run({
      routing: { registered: ["search", "sql", "get_weather"], entries: [{ content: "search" }] },
      pipeline: [{ kind: "scripted", name: "pick", outcome: { select: ["search", "sql"] } }],
    });
    expect(report.offered).toEqual(["search"]);
    const pick = report.trace.find((record) => record.stage === "pick")!;
    expect(pick.action).toBe("select");
    expect(pick.kept).toEqual(["search"]);
    expect(pick.added).toEqual(["sql"]);
    expect(pick.detail).not.toMatch(/error/i);
    expect(report.names).toEqual(["search", "sql"]);
    expect(report.error).toBeNull();
  });
});
