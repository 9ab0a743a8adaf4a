import { beforeEach, describe, expect, it } from "vitest";
import { fake, Uri } from "../fakes/vscode.js";
import { newFixture, starterFixture } from "../../src/extension/new-fixture.js";
import { loadFixtureFromUri } from "../../src/extension/fixtures.js";

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder("/ws");
  fake.writeFile(
    "/ws/agents/tools.catalog.json",
    JSON.stringify([{ name: "search" }, { name: "final_answer" }]),
  );
});

describe("New Turn Fixture", () => {
  it("writes a valid starter fixture next to the catalogue and opens it", async () => {
    fake.answers.inputBox.push("weather.turn.json");
    const created = await newFixture();
    expect(created?.toString()).toBe(Uri.file("/ws/agents/weather.turn.json").toString());
    const text = fake.files.get(created!.toString())!;
    const loaded = await loadFixtureFromUri(created!);
    expect(loaded.problems).toEqual([]);
    expect(JSON.parse(text).catalog).toBe("./tools.catalog.json");
    expect(JSON.parse(text).pipeline[0].always_include).toEqual(["final_answer"]);
  });

  it("never overwrites an existing file", async () => {
    fake.writeFile("/ws/agents/taken.turn.json", '{"description": "mine"}');
    fake.answers.inputBox.push("taken.turn.json");
    expect(await newFixture()).toBeUndefined();
    expect(fake.files.get(Uri.file("/ws/agents/taken.turn.json").toString())).toBe(
      '{"description": "mine"}',
    );
    expect(fake.shown.at(-1)?.message).toMatch(/already exists/);
  });

  it("asks which catalogue when there are several, and does nothing when cancelled", async () => {
    fake.writeFile("/ws/other/b.catalog.json", "[]");
    fake.answers.quickPick.push(undefined);
    expect(await newFixture()).toBeUndefined();
    expect([...fake.files.keys()].filter((k) => k.endsWith(".turn.json"))).toEqual([]);
  });

  it("starts without a catalog key when the workspace has none", () => {
    expect(JSON.parse(starterFixture(null, [])).catalog).toBeUndefined();
  });
});
