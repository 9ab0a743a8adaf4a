import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { disposeLog } from "../../src/extension/notify.js";
import { updateExpectation } from "../../src/extension/testing/update-expectation.js";
import { fake, workspace } from "../fakes/vscode.js";

const FIXTURE = `{
    "description": "kept as written",   
    "offered": ["a", "b"],
    "pipeline": [{ "kind": "lazy", "allowed_names": ["a"] }],
    "expect": { "names": ["a", "b"] }
}
`;

beforeEach(() => {
  disposeLog();
  fake.reset();
  fake.addWorkspaceFolder("/ws");
});

describe("Update Expectation from Current Result", () => {
  it("rewrites only the expect block, in the file's own indentation, after confirmation", async () => {
    const uri = fake.writeFile("/ws/f.turn.json", FIXTURE);
    fake.answers.message.push("Update Expectation");
    expect(await updateExpectation(uri as unknown as vscode.Uri)).toBe(true);
    const text = fake.documents[0]!.getText();
    expect(text.split("\n").slice(0, 4).join("\n")).toBe(
      FIXTURE.split("\n").slice(0, 4).join("\n"),
    );
    expect(JSON.parse(text).expect).toEqual({ names: ["a"] });
    expect(text).toContain(
      '    "expect": {\n        "names": [\n            "a"\n        ]\n    }',
    );
    expect(fake.appliedEdits).toHaveLength(1);
  });

  it("Update Expectation keeps exactly the user's keys, lists each change old → new, saves and re-runs the test", async () => {
    const uri = fake.writeFile(
      "/ws/h.turn.json",
      JSON.stringify(
        {
          offered: ["a", "b", "c"],
          pipeline: [
            { kind: "lazy", allowed_names: ["a", "b"] },
            { kind: "scripted", name: "narrow", outcome: { select: ["a"] } },
          ],
          expect: {
            names: ["a", "b"],
            dropped_by: { b: null, c: "lazy" },
            actions: { narrow: "abstain" },
          },
        },
        null,
        2,
      ),
    );
    fake.answers.message.push("Update Expectation");
    const reran: string[] = [];
    const done = await updateExpectation(uri as unknown as vscode.Uri, async (saved) => {
      reran.push(saved.path);
    });
    expect(done).toBe(true);
    const dialog = fake.shown.at(-1)!;
    expect(dialog.message).toBe("Update 3 expectations of h.turn.json to the current result?");
    expect(dialog.detail!.split("\n")).toEqual([
      "names: a, b → a",
      "dropped_by.b: none → narrow",
      "actions.narrow: abstain → select",
    ]);
    // The user's keys, in the user's order, and no others (no forced_choice, no added actions).
    const saved = JSON.parse(fake.files.get(uri.toString())!);
    expect(saved.expect).toEqual({
      names: ["a"],
      dropped_by: { b: "narrow", c: "lazy" },
      actions: { narrow: "select" },
    });
    expect(Object.keys(saved.expect)).toEqual(["names", "dropped_by", "actions"]);
    expect(reran).toEqual(["/ws/h.turn.json"]);
  });

  it("says so, and changes nothing, when the expectations already match", async () => {
    const uri = fake.writeFile(
      "/ws/f.turn.json",
      FIXTURE.replace('"names": ["a", "b"]', '"names": ["a"]'),
    );
    expect(await updateExpectation(uri as unknown as vscode.Uri)).toBe(false);
    expect(fake.shown.at(-1)!.message).toMatch(/already match/);
    expect(fake.appliedEdits).toHaveLength(0);
  });

  it("changes nothing when the user does not confirm", async () => {
    const uri = fake.writeFile("/ws/f.turn.json", FIXTURE);
    fake.answers.message.push(undefined);
    expect(await updateExpectation(uri as unknown as vscode.Uri)).toBe(false);
    expect(fake.appliedEdits).toHaveLength(0);
  });

  it("refuses an invalid fixture with its first error and changes nothing", async () => {
    const uri = fake.writeFile("/ws/f.turn.json", '{"pipeline": [{"kind": "x"}]}');
    expect(await updateExpectation(uri as unknown as vscode.Uri)).toBe(false);
    expect(fake.shown.at(-1)!.message).toMatch(/f\.turn\.json is invalid/);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toMatch(
      /f\.turn\.json:1:24: error: unknown stage kind "x"/,
    );
    expect(fake.appliedEdits).toHaveLength(0);
  });

  it("records an expected ForcedToolUnavailable", async () => {
    const uri = fake.writeFile(
      "/ws/g.turn.json",
      JSON.stringify({
        offered: ["a", "b"],
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
          { kind: "lazy", allowed_names: ["a"], protects_forced: false },
        ],
      }),
    );
    fake.answers.message.push("Update Expectation");
    await updateExpectation(uri as unknown as vscode.Uri);
    expect(JSON.parse(fake.documents[0]!.getText()).expect).toMatchObject({
      error: "ForcedToolUnavailable",
      forced_choice: "b",
      names: ["a"],
    });
  });
});

describe("Update Expectation, the confirmation's words and refusals", () => {
  it("words absent keys, no tools and no forced choice, and counts changes in the plural", async () => {
    const uri = fake.writeFile(
      "/ws/n.turn.json",
      JSON.stringify({ offered: ["a"], pipeline: [{ kind: "lazy", allowed_names: [] }] }),
    );
    fake.answers.message.push(undefined);
    expect(await updateExpectation(uri as unknown as vscode.Uri)).toBe(false);
    const dialog = fake.shown.at(-1)!;
    expect(dialog.message).toBe("Update 2 expectations of n.turn.json to the current result?");
    expect(dialog.detail!.split("\n")).toEqual([
      "names: (absent) → (no tools)",
      "forced_choice: (absent) → none",
    ]);
  });

  it("says one expectation in the singular", async () => {
    const uri = fake.writeFile(
      "/ws/s.turn.json",
      JSON.stringify({
        offered: ["a", "b"],
        pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
        expect: { names: ["b"] },
      }),
    );
    fake.answers.message.push(undefined);
    await updateExpectation(uri as unknown as vscode.Uri);
    const dialog = fake.shown.at(-1)!;
    expect(dialog.message).toBe("Update 1 expectation of s.turn.json to the current result?");
    expect(dialog.detail).toBe("names: b → a");
  });

  it("logs only an invalid fixture's errors, not its warnings", async () => {
    const uri = fake.writeFile(
      "/ws/w.turn.json",
      JSON.stringify({
        offered: ["a"],
        pipeline: [{ kind: "lazy", allowed_names: ["zz"] }],
        expect: { actions: { x: "select" } },
      }),
    );
    expect(await updateExpectation(uri as unknown as vscode.Uri)).toBe(false);
    const log = fake.outputs.get("Palette Inspector")!.join("\n");
    expect(log).toMatch(/no stage named .x./);
    expect(log).not.toMatch(/zz/);
  });

  it("neither saves nor re-runs when the edit is refused", async () => {
    const uri = fake.writeFile("/ws/f.turn.json", FIXTURE);
    fake.answers.message.push("Update Expectation");
    const applyEdit = workspace.applyEdit;
    workspace.applyEdit = async () => false;
    const reran: string[] = [];
    try {
      const done = await updateExpectation(uri as unknown as vscode.Uri, async (saved) => {
        reran.push(saved.path);
      });
      expect(done).toBe(false);
    } finally {
      workspace.applyEdit = applyEdit;
    }
    expect(fake.files.get(uri.toString())).toBe(FIXTURE);
    expect(reran).toEqual([]);
  });

  it("does not re-run the test when saving fails", async () => {
    const uri = fake.writeFile("/ws/f.turn.json", FIXTURE);
    fake.answers.message.push("Update Expectation");
    const document = await workspace.openTextDocument(uri);
    document.save = async () => false;
    const reran: string[] = [];
    const done = await updateExpectation(uri as unknown as vscode.Uri, async (saved) => {
      reran.push(saved.path);
    });
    expect(done).toBe(false);
    expect(reran).toEqual([]);
  });
});
