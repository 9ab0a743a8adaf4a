import { beforeEach, describe, expect, it } from "vitest";
import { fake, Uri } from "../fakes/vscode.js";
import { newFixture, starterFixture } from "../../src/extension/new-fixture.js";
import { waterfallRows } from "../../src/core/lineage.js";
import { loadFixture } from "../../src/core/fixture/load.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { isRegressionTest } from "../../src/extension/testing/fixture-tests.js";
import { loadFixtureFromUri, readWorkspaceCatalog } from "../../src/extension/fixtures.js";

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

  it("5. New Turn Fixture selects only the name, adds .turn.json, writes into the folder it was invoked on, with no false 'released' pin and an expect block", async () => {
    fake.answers.inputBox.push("my-case");
    const created = await newFixture(Uri.file("/ws/cases") as never);
    const box = fake.inputBoxes.at(-1)!;
    expect(box.value).toBe("new-turn.turn.json");
    expect(box.valueSelection).toEqual([0, "new-turn".length]);
    expect(box.validateInput!("my-case")).toBeUndefined();
    expect(box.validateInput!("a/b")).toBeDefined();
    expect(created?.toString()).toBe(Uri.file("/ws/cases/my-case.turn.json").toString());
    const text = fake.files.get(created!.toString())!;
    expect(JSON.parse(text).catalog).toBe("../agents/tools.catalog.json");
    expect(isRegressionTest(text)).toBe(true);
    const loaded = await loadFixture({ file: created!.toString(), text }, readWorkspaceCatalog);
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("; "));
    const report = runFixture(loaded.fixture);
    expect(JSON.parse(text).expect).toEqual({
      names: report.names,
      forced_choice: report.forcedChoice,
    });
    const forced = waterfallRows(report).find((row) => row.info.kind === "forced")!;
    expect(forced.pin).toBeNull();
    expect(fake.shownDocuments.at(-1)!.uri.toString()).toBe(created!.toString());
  });
});
