import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { expectChanges } from "../../src/core/fixture/edit-expect.js";
import { updateExpectation } from "../../src/extension/testing/update-expectation.js";
import { fake } from "../fakes/vscode.js";

const FIXTURE = `{
    "description": "kept as written",   
    "offered": ["a", "b"],
    "pipeline": [{ "kind": "lazy", "allowed_names": ["a"] }],
    "expect": { "names": ["a", "b"] }
}
`;

beforeEach(() => {
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
    expect(JSON.parse(text).expect).toEqual({
      names: ["a"],
      forced_choice: null,
      actions: { lazy: "select" },
    });
    expect(text).toContain('    "expect": {\n        "names": [\n            "a"\n        ],');
    expect(fake.appliedEdits).toHaveLength(1);
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

  it("adds an expect block to a fixture that has none, keeping CRLF line ends", () => {
    const text = '{\r\n  "offered": ["a"]\r\n}\r\n';
    const [change] = expectChanges(text, { names: ["a"] });
    const next =
      text.slice(0, change!.offset) + change!.content + text.slice(change!.offset + change!.length);
    expect(next).toBe(
      '{\r\n  "offered": ["a"],\r\n  "expect": {\r\n    "names": [\r\n      "a"\r\n    ]\r\n  }\r\n}\r\n',
    );
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
