import { beforeEach, describe, expect, it } from "vitest";
import { pickFixture } from "../../src/extension/fixture-pick.js";
import { fake } from "../fakes/vscode.js";

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder("/ws");
});

describe("the fixture quick pick", () => {
  it("lists the workspace's fixtures by path, outside dependency and build folders", async () => {
    for (const path of [
      "/ws/z.turn.json",
      "/ws/node_modules/pkg/a.turn.json",
      "/ws/dist/b.turn.json",
      "/ws/.vscode-test/c.turn.json",
      "/ws/cases/m.turn.json",
      "/ws/a.turn.json",
      "/ws/notes.json",
    ])
      fake.writeFile(path, "{}");
    fake.answers.quickPick.push((items: { label: string }[]) => items[1]);
    const picked = await pickFixture("Run Selection on Fixture");
    const [shown] = fake.quickPicks;
    expect((shown!.items as { label: string }[]).map((item) => item.label)).toEqual([
      "a.turn.json",
      "cases/m.turn.json",
      "z.turn.json",
    ]);
    expect(shown!.options).toEqual({
      title: "Run Selection on Fixture",
      placeHolder: "Which fixture?",
    });
    expect(picked?.path).toBe("/ws/cases/m.turn.json");
  });

  it("picks nothing when the user dismisses the list", async () => {
    fake.writeFile("/ws/a.turn.json", "{}");
    fake.answers.quickPick.push(undefined);
    expect(await pickFixture("Run Selection on Fixture")).toBeUndefined();
    expect(fake.quickPicks).toHaveLength(1);
  });

  it("says how to make one when the workspace has none, and picks nothing", async () => {
    fake.writeFile("/ws/node_modules/a.turn.json", "{}");
    expect(await pickFixture("Compare with a fixture's run")).toBeUndefined();
    expect(fake.quickPicks).toEqual([]);
    expect(fake.shown.map((shown) => shown.message)).toEqual([
      "Palette Inspector: no *.turn.json fixture in this workspace. Create one with 'Palette Inspector: New Turn Fixture'.",
    ]);
  });
});
