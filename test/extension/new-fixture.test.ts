import { beforeEach, describe, expect, it, vi } from "vitest";
import { fake, Uri } from "../fakes/vscode.js";
import { fixtureFileName, newFixture, starterFixture } from "../../src/extension/new-fixture.js";
import { waterfallRows } from "../../src/core/lineage.js";
import { loadFixture } from "../../src/core/fixture/load.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { isRegressionTest } from "../../src/extension/testing/fixture-tests.js";
import { loadFixtureFromUri, readWorkspaceCatalog } from "../../src/extension/fixtures.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

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
    expect(JSON.parse(text).pipeline[0]).toMatchObject({
      kind: "intent",
      verdict: { label: "action", matched_tool_keywords: [] },
      always_include: ["final_answer"],
    });
    expect(JSON.parse(text).description).toBe(
      "Describe the turn and what the pipeline should decide.",
    );
    expect(text).toMatch(/\n\}\n$/);
    expect(starterFixture(null, [])).toMatch(/\n\}\n$/);
  });

  it("never takes a catalogue from node_modules", async () => {
    fake.writeFile("/ws/node_modules/pkg/dep.catalog.json", JSON.stringify([{ name: "dep" }]));
    fake.answers.inputBox.push("mine");
    await newFixture();
    expect(fake.quickPicks).toEqual([]);
    const text = fake.files.get(Uri.file("/ws/agents/mine.turn.json").toString())!;
    expect(JSON.parse(text).catalog).toBe("./tools.catalog.json");
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

  it("New Turn Fixture selects only the name, adds .turn.json, writes into the folder it was invoked on, with no false 'released' pin and an expect block", async () => {
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

describe("New Turn Fixture: names, folders and catalogues", () => {
  const created = () => [...fake.files.keys()].filter((key) => key.endsWith(".turn.json"));

  it("turns what was typed into a fixture name", () => {
    expect(fixtureFileName("  case  ")).toBe("case.turn.json");
    expect(fixtureFileName("case.JSON")).toBe("case.turn.json");
    expect(fixtureFileName("case.Turn.Json")).toBe("case.Turn.Json");
    expect(fixtureFileName("case.json.bak")).toBe("case.json.bak.turn.json");
    expect(fixtureFileName("case.turn.json.bak")).toBe("case.turn.json.bak.turn.json");
  });

  it("keeps the final-answer tool in a starter's always-include lists", () => {
    const stages = (names: string[]) =>
      (
        JSON.parse(starterFixture("./t.catalog.json", names)).pipeline as {
          always_include?: string[];
        }[]
      )
        .map((stage) => stage.always_include)
        .filter((list) => list !== undefined);
    expect(stages(["search", "give_answer"])).toEqual([["give_answer"], ["give_answer"]]);
    expect(stages(["search", "finalize"])).toEqual([["finalize"], ["finalize"]]);
    expect(stages(["search"])).toEqual([[], []]);
    expect(JSON.parse(starterFixture("./t.catalog.json", [])).catalog).toBe("./t.catalog.json");
  });

  it("refuses an empty name or one with folders, and says where the file goes", async () => {
    fake.answers.inputBox.push(undefined);
    expect(await newFixture()).toBeUndefined();
    const box = fake.inputBoxes.at(-1)!;
    expect(box.title).toBe("New Turn Fixture");
    expect(box.prompt).toBe("File name in agents (.turn.json is added)");
    for (const bad of ["", "   ", "a\\b", "a/b"])
      expect(box.validateInput!(bad)).toBe("A file name, without folders");
    expect(created()).toEqual([]);
  });

  it("uses the nearest catalogue above the folder it was invoked on, without asking", async () => {
    fake.writeFile("/ws/tools.catalog.json", JSON.stringify([{ name: "outer" }]));
    fake.writeFile("/ws/agents-old/x.catalog.json", JSON.stringify([{ name: "elsewhere" }]));
    fake.answers.inputBox.push("deep", "beside");
    await newFixture(Uri.file("/ws/agents/cases/deep") as never);
    await newFixture(Uri.file("/ws/agents") as never);
    expect(fake.quickPicks).toEqual([]);
    const catalogOf = (path: string) =>
      JSON.parse(fake.files.get(Uri.file(path).toString())!).catalog;
    expect(catalogOf("/ws/agents/cases/deep/deep.turn.json")).toBe("../../tools.catalog.json");
    expect(catalogOf("/ws/agents/beside.turn.json")).toBe("./tools.catalog.json");
  });

  it("takes the deepest catalogue above the folder, whatever order the search found them in, and never a sibling folder's", async () => {
    fake.writeFile("/ws/tools.catalog.json", JSON.stringify([{ name: "outer" }]));
    fake.writeFile("/ws/agents/cases/near.catalog.json", JSON.stringify([{ name: "near" }]));
    fake.answers.inputBox.push("deep", "sibling");
    await newFixture(Uri.file("/ws/agents/cases/deep") as never);
    // "/ws/agents-old" starts with "/ws/agents" but is not inside it.
    await newFixture(Uri.file("/ws/agents-old") as never);
    const catalogOf = (path: string) =>
      JSON.parse(fake.files.get(Uri.file(path).toString())!).catalog;
    expect(catalogOf("/ws/agents/cases/deep/deep.turn.json")).toBe("../near.catalog.json");
    expect(catalogOf("/ws/agents-old/sibling.turn.json")).toBe("../tools.catalog.json");
  });

  it("asks which catalogue, sorted by path, and writes the fixture next to the one picked", async () => {
    fake.writeFile("/ws/a/b.catalog.json", JSON.stringify([{ name: "only_b" }]));
    fake.answers.quickPick.push((items: { label: string }[]) => items[0]);
    fake.answers.inputBox.push("picked");
    await newFixture();
    const [pick] = fake.quickPicks;
    expect((pick!.items as { label: string }[]).map((item) => item.label)).toEqual([
      "a/b.catalog.json",
      "agents/tools.catalog.json",
    ]);
    expect(pick!.options).toEqual({
      title: "New Turn Fixture: which catalogue?",
      placeHolder: "The fixture lists its tools",
    });
    const text = JSON.parse(fake.files.get(Uri.file("/ws/a/picked.turn.json").toString())!);
    expect(text.catalog).toBe("./b.catalog.json");
    expect(text.turn).toEqual({ query: "", role: "", state: {}, messages: [] });
  });

  it("with no catalogue, writes into the first workspace folder; with no folder either, says to open one", async () => {
    fake.reset();
    fake.answers.inputBox.push("bare");
    expect(await newFixture()).toBeUndefined();
    // A workspace file with no folders in it has no place either.
    fake.workspaceFile = Uri.file("/empty.code-workspace");
    expect(await newFixture()).toBeUndefined();
    expect(fake.shown.map((s) => [s.kind, s.message])).toEqual(
      Array(2).fill([
        "error",
        "Palette Inspector: open a folder first; a fixture lives in a workspace.",
      ]),
    );
    fake.addWorkspaceFolder("/first");
    fake.addWorkspaceFolder("/second");
    await newFixture();
    const text = JSON.parse(fake.files.get(Uri.file("/first/bare.turn.json").toString())!);
    expect(text.catalog).toBeUndefined();
  });

  it("writes a starter without an expectation when the catalogue cannot be read as one", async () => {
    fake.writeFile("/ws/agents/tools.catalog.json", "not json");
    fake.answers.inputBox.push("broken");
    const uri = await newFixture();
    const text = JSON.parse(fake.files.get(uri!.toString())!);
    expect(text.pipeline[0].always_include).toEqual([]);
    expect(text.expect).toBeUndefined();
    expect(fake.shownDocuments.map((d) => d.uri.toString())).toEqual([uri!.toString()]);
  });
});
