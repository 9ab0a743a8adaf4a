import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FixtureTests,
  MISMATCH_CONTEXT,
  isRegressionTest,
} from "../../src/extension/testing/fixture-tests.js";
import { fake, TestRunRequest, testRuns, Uri, type FakeTestItem } from "../fakes/vscode.js";

const token = { isCancellationRequested: false } as vscode.CancellationToken;
/** Lets the clock run `ms` on: a debounced re-run starts, and what it awaits settles. */
const settle = async (ms = 30) => {
  await vi.advanceTimersByTimeAsync(ms);
};

const passing = {
  offered: ["a", "b"],
  pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
  expect: { names: ["a"] },
};
const failing = {
  offered: ["a", "b"],
  pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
  expect: { names: ["a", "b"], forced_choice: null },
};

let tests: FixtureTests;
const items = () =>
  tests.controller.items as unknown as {
    forEach(cb: (item: FakeTestItem) => void): void;
    get(id: string): FakeTestItem | undefined;
  };
const leaf = (path: string) => {
  let found: FakeTestItem | undefined;
  items().forEach((group) => (found ??= group.children.get(Uri.file(path).toString())));
  return found;
};
const run = async (include?: FakeTestItem[]) => {
  await tests.run(new TestRunRequest(include) as unknown as vscode.TestRunRequest, token);
  return testRuns.at(-1)!;
};

beforeEach(async () => {
  vi.useFakeTimers();
  fake.reset();
  testRuns.length = 0;
  fake.addWorkspaceFolder("/ws");
  fake.writeFile("/ws/a/pass.turn.json", JSON.stringify(passing, null, 2));
  fake.writeFile("/ws/a/fail.turn.json", JSON.stringify(failing, null, 2));
  fake.writeFile("/ws/b/no-expect.turn.json", JSON.stringify({ offered: ["a"] }));
  fake.writeFile(
    "/ws/b/broken.turn.json",
    '{\n  "pipeline": [{"kind": "lazzy"}],\n  "expect": {}\n}',
  );
  tests = new FixtureTests(1);
  await tests.discover();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Testing view", () => {
  it("names its controller by a stable id (VS Code keeps test results by it) and a readable label", () => {
    expect([tests.controller.id, tests.controller.label]).toEqual([
      "paletteInspector.fixtures",
      "Palette Inspector fixtures",
    ]);
  });

  it("lists fixtures with expect, grouped by folder, and leaves out those without", () => {
    const groups: string[] = [];
    items().forEach((group) =>
      groups.push(
        `${group.label}: ${[...group.children]
          .map(([, child]) => child.label)
          .sort()
          .join(", ")}`,
      ),
    );
    expect(groups.sort()).toEqual(["a: fail, pass", "b: broken"]);
    expect(isRegressionTest('{"expect": {}}')).toBe(true);
    expect(isRegressionTest('{"offered": []}')).toBe(false);
  });

  it("labels the group of fixtures at the workspace root with the folder's name, not its absolute path", async () => {
    fake.writeFile("/ws/top.turn.json", JSON.stringify(passing, null, 2));
    await tests.discover();
    const labels: string[] = [];
    items().forEach((group) => labels.push(String(group.label)));
    expect(labels.sort()).toEqual(["a", "b", "ws"]);
  });

  it("passes a fixture that meets its expectations, with its waterfall in the test output", async () => {
    const result = await run([leaf("/ws/a/pass.turn.json")!]);
    expect(result.results.map((r) => r.state)).toEqual(["started", "passed"]);
    expect(result.ended).toBe(true);
    const [output] = result.output;
    expect(output!.item).toBe(leaf("/ws/a/pass.turn.json"));
    expect(output!.output).toContain("lazy");
    expect(output!.output).not.toMatch(/[^\r]\n/);
    expect(output!.output).toContain("\r\n");
    // The Test Results terminal shows colour.
    expect(output!.output).toContain("\x1b[");
  });

  it("fails with an expected/actual diff located at the expect key", async () => {
    const result = await run([leaf("/ws/a/fail.turn.json")!]);
    const failed = result.results.find((r) => r.state === "failed")!;
    const [message] = failed.messages;
    expect(message!.message).toBe("$.expect.names: final names differ");
    expect(message!.expectedOutput).toBe('[\n  "a",\n  "b"\n]');
    expect(message!.actualOutput).toBe('[\n  "a"\n]');
    expect(message!.location!.range.start).toMatchObject({ line: 14, character: 4 });
  });

  it("has only diffs, the peek opening on one, each with Show Selection Trace on its context menu, never a message of its own", async () => {
    const result = await run([leaf("/ws/a/fail.turn.json")!]);
    const { messages } = result.results.find((r) => r.state === "failed")!;
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => m.actualOutput !== undefined)).toBe(true);
    expect(messages.every((m) => m.contextValue === MISMATCH_CONTEXT)).toBe(true);
    // No content menu: its button floats over the diff's Actual lines.
    const { readFile } = await import("node:fs/promises");
    const manifest = JSON.parse(
      await readFile(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { contributes: { menus: Record<string, { when: string }[]> } };
    const whens = (menu: string) => manifest.contributes.menus[menu]!.map((item) => item.when);
    expect(manifest.contributes.menus["testing/message/content"]).toBeUndefined();
    expect(whens("testing/message/context")[0]).toContain(`testMessage == ${MISMATCH_CONTEXT}`);
  });

  it("reports an invalid fixture as errored with the validation message at its position", async () => {
    const result = await run([leaf("/ws/b/broken.turn.json")!]);
    const errored = result.results.find((r) => r.state === "errored")!;
    expect(errored.messages[0]!.message).toMatch(
      /^unknown stage kind "lazzy"; did you mean 'lazy'\? \(at \$\.pipeline\[0\]\.kind\)$/,
    );
    expect(errored.messages[0]!.location!.range.start).toMatchObject({ line: 1, character: 24 });
  });

  it("runs every fixture when the request names none", async () => {
    const result = await run();
    const finals = result.results
      .filter((r) => r.state !== "started")
      .map((r) => `${r.item.label}:${r.state}`)
      .sort();
    expect(finals).toEqual(["broken:errored", "fail:failed", "pass:passed"]);
  });

  it("follows unsaved edits: adding expect lists a fixture, removing it unlists it", async () => {
    const uri = Uri.file("/ws/b/no-expect.turn.json");
    const doc = fake.openDocument(uri);
    fake.editDocument(doc, JSON.stringify({ offered: ["a"], expect: { names: ["a"] } }));
    await settle();
    expect(leaf("/ws/b/no-expect.turn.json")).toBeDefined();
    fake.editDocument(doc, JSON.stringify({ offered: ["a"] }));
    await settle();
    expect(leaf("/ws/b/no-expect.turn.json")).toBeUndefined();
  });

  it("discovers created files and forgets deleted ones", async () => {
    fake.writeFile("/ws/c/new.turn.json", JSON.stringify(passing));
    await settle();
    expect(leaf("/ws/c/new.turn.json")).toBeDefined();
    fake.deleteFile("/ws/c/new.turn.json");
    fake.deleteFile("/ws/a/pass.turn.json");
    await settle();
    expect(leaf("/ws/c/new.turn.json")).toBeUndefined();
    expect(items().get(`folder:${Uri.file("/ws/c").toString()}`)).toBeUndefined();
    expect(leaf("/ws/a/pass.turn.json")).toBeUndefined();
    expect(leaf("/ws/a/fail.turn.json")).toBeDefined();
  });

  it("watches only fixtures: other files created or deleted change nothing", async () => {
    const groups = () => {
      const labels: string[] = [];
      items().forEach((group) => labels.push(group.label));
      return labels;
    };
    const before = groups();
    fake.writeFile("/ws/c/tools.catalog.json", "[]");
    fake.writeFile("/ws/c/notes.json", JSON.stringify(passing));
    await settle();
    expect(leaf("/ws/c/notes.json")).toBeUndefined();
    expect(groups()).toEqual(before);
  });

  it("re-runs a continuous request when a fixture changes", async () => {
    await tests.run(
      new TestRunRequest(undefined, undefined, undefined, true) as unknown as vscode.TestRunRequest,
      token,
    );
    expect(testRuns).toHaveLength(0);
    fake.writeFile(
      "/ws/a/pass.turn.json",
      JSON.stringify({ ...passing, expect: { names: ["b"] } }),
    );
    await settle();
    expect(testRuns.at(-1)!.results.map((r) => `${r.item.label}:${r.state}`)).toEqual([
      "pass:started",
      "pass:failed",
    ]);
  });
});

describe("runFile (after Update Expectation)", () => {
  it("runs that one fixture's test now, with what is on disk", async () => {
    fake.writeFile(
      "/ws/a/fail.turn.json",
      JSON.stringify({ ...failing, expect: { names: ["a"] } }),
    );
    await tests.runFile(Uri.file("/ws/a/fail.turn.json") as unknown as vscode.Uri);
    const last = testRuns.at(-1)!;
    expect(last.ended).toBe(true);
    expect(
      last.results.filter((r) => r.state !== "started").map((r) => [r.item.label, r.state]),
    ).toEqual([["fail", "passed"]]);
  });
});

describe("Testing view discovery of a fixture past the size limit", () => {
  it("size limit: discovery lists a 20 MB unclosed fixture without reading it, and running it reports the limit", async () => {
    const huge = fake.writeFile("/ws/c/huge.turn.json", "[".repeat(20 * 1024 * 1024));
    await tests.discover();
    expect(fake.reads).not.toContain(huge.toString());
    const result = await run([leaf("/ws/c/huge.turn.json")!]);
    const errored = result.results.find((r) => r.state === "errored")!;
    expect(errored.messages.map((m) => m.message)).toEqual([
      "fixture is 20 MB; the limit is 10 MB",
    ]);
    expect(errored.messages[0]!.location!.range.start).toMatchObject({ line: 0, character: 0 });
    expect(fake.reads).not.toContain(huge.toString());
  });

  it("deep nesting: an unclosed fixture of 6,000 brackets is a test that errors at the depth limit", async () => {
    fake.writeFile("/ws/c/deep.turn.json", "[".repeat(6000));
    await tests.discover();
    const result = await run([leaf("/ws/c/deep.turn.json")!]);
    const errored = result.results.find((r) => r.state === "errored")!;
    expect(errored.messages[0]!.message).toBe("nested deeper than 64 levels; the limit is 64");
    expect(errored.messages[0]!.location!.range.start).toMatchObject({ line: 0, character: 64 });
  });
});

describe("Testing view, what counts as a regression test", () => {
  it("reads a fixture saved with a byte-order mark, and only an object with an expect key", () => {
    expect(isRegressionTest('\ufeff{"expect": {}}')).toBe(true);
    expect(isRegressionTest('\ufeff{"offered": []}')).toBe(false);
    expect(isRegressionTest("{ not json")).toBe(true);
    expect(isRegressionTest("null")).toBe(false);
    expect(isRegressionTest('"expect"')).toBe(false);
    expect(isRegressionTest('[{"expect": {}}]')).toBe(false);
    expect(isRegressionTest('{"offered": [], "x": {"expect": {}}}')).toBe(false);
  });

  it("an edited JSON file that is not a fixture never becomes a test, even with an expect key", async () => {
    const uri = Uri.file("/ws/b/notes.json");
    const doc = fake.openDocument(uri, "{}");
    fake.editDocument(doc, JSON.stringify(passing));
    await settle();
    expect(leaf("/ws/b/notes.json")).toBeUndefined();
  });

  it("a fixture's test starts at the top of its file and its old result is marked outdated on change", async () => {
    const item = leaf("/ws/a/pass.turn.json")!;
    expect(item.range).toMatchObject({ start: { line: 0, character: 0 } });
    const controller = tests.controller as unknown as { invalidated: unknown[] };
    controller.invalidated.length = 0;
    fake.writeFile("/ws/a/pass.turn.json", JSON.stringify(failing));
    await settle();
    expect(controller.invalidated).toEqual([item]);
  });
});

describe("Testing view runs", () => {
  const finals = (record: (typeof testRuns)[number]) =>
    record.results.filter((r) => r.state !== "started").map((r) => `${r.item.label}:${r.state}`);

  it("offers one default run profile that supports continuous runs, and its handler runs the tests", async () => {
    const controller = tests.controller as unknown as {
      profiles: {
        label: string;
        isDefault: boolean;
        kind: number;
        supportsContinuousRun: boolean;
        runHandler: (r: unknown, t: unknown) => Promise<void>;
      }[];
    };
    expect(
      controller.profiles.map((p) => [p.label, p.kind, p.isDefault, p.supportsContinuousRun]),
    ).toEqual([["Run fixtures", 1, true, true]]);
    await controller.profiles[0]!.runHandler(
      new TestRunRequest([leaf("/ws/a/pass.turn.json")!]),
      token,
    );
    expect(finals(testRuns.at(-1)!)).toEqual(["pass:passed"]);
  });

  it("the refresh button finds fixtures added since", async () => {
    const controller = tests.controller as unknown as { refreshHandler: () => Promise<void> };
    fake.files.set(Uri.file("/ws/d/quiet.turn.json").toString(), JSON.stringify(passing));
    expect(leaf("/ws/d/quiet.turn.json")).toBeUndefined();
    await controller.refreshHandler();
    expect(leaf("/ws/d/quiet.turn.json")).toBeDefined();
  });

  it("runs a whole folder, leaving out what the request excludes", async () => {
    const group = leaf("/ws/a/pass.turn.json")!.parent!;
    await tests.run(
      new TestRunRequest(
        [group],
        [leaf("/ws/a/fail.turn.json")!],
      ) as unknown as vscode.TestRunRequest,
      token,
    );
    expect(finals(testRuns.at(-1)!)).toEqual(["pass:passed"]);
  });

  it("skips every test once the run is cancelled, and still ends the run", async () => {
    const cancelled = { isCancellationRequested: true } as vscode.CancellationToken;
    await tests.run(new TestRunRequest() as unknown as vscode.TestRunRequest, cancelled);
    const last = testRuns.at(-1)!;
    expect(last.results.map((r) => r.state)).toEqual(["skipped", "skipped", "skipped"]);
    expect(last.ended).toBe(true);
  });

  it("an invalid fixture errors with its errors only, not its warnings", async () => {
    fake.writeFile(
      "/ws/b/broken.turn.json",
      JSON.stringify({
        offered: ["a"],
        pipeline: [{ kind: "lazy", allowed_names: ["zz"] }],
        expect: { actions: { lazzy: "select" } },
      }),
    );
    const result = await run([leaf("/ws/b/broken.turn.json")!]);
    const errored = result.results.find((r) => r.state === "errored")!;
    expect(errored.messages.map((m) => m.message)).toEqual([
      expect.stringMatching(/^no stage named .lazzy./),
    ]);
    expect(errored.messages[0]!.location!.uri.toString()).toBe(
      Uri.file("/ws/b/broken.turn.json").toString(),
    );
  });

  it("a continuous run of one fixture re-runs only that fixture, and stops when cancelled", async () => {
    const live = { isCancellationRequested: false };
    await tests.run(
      new TestRunRequest(
        [leaf("/ws/a/pass.turn.json")!],
        undefined,
        undefined,
        true,
      ) as unknown as vscode.TestRunRequest,
      live as vscode.CancellationToken,
    );
    fake.writeFile("/ws/a/fail.turn.json", JSON.stringify(failing));
    await settle();
    expect(testRuns).toHaveLength(0);
    fake.writeFile("/ws/a/pass.turn.json", JSON.stringify(passing));
    await settle();
    expect(testRuns.map(finals)).toEqual([["pass:passed"]]);
    live.isCancellationRequested = true;
    fake.writeFile("/ws/a/pass.turn.json", JSON.stringify(passing));
    await settle();
    expect(testRuns).toHaveLength(1);
  });

  it("a continuous run of several fixtures re-runs whichever of them changes", async () => {
    await tests.run(
      new TestRunRequest(
        [leaf("/ws/a/pass.turn.json")!, leaf("/ws/b/broken.turn.json")!],
        undefined,
        undefined,
        true,
      ) as unknown as vscode.TestRunRequest,
      token,
    );
    fake.writeFile("/ws/a/pass.turn.json", JSON.stringify(passing));
    await settle();
    expect(testRuns.map(finals)).toEqual([["pass:passed"]]);
  });

  it("a continuous run of a folder re-runs a fixture in it that changes", async () => {
    const group = leaf("/ws/a/pass.turn.json")!.parent!;
    await tests.run(
      new TestRunRequest([group], undefined, undefined, true) as unknown as vscode.TestRunRequest,
      token,
    );
    fake.writeFile("/ws/a/fail.turn.json", JSON.stringify(failing));
    await settle();
    expect(testRuns.map(finals)).toEqual([["fail:failed"]]);
  });

  it("stops following edits once disposed", async () => {
    const uri = Uri.file("/ws/b/no-expect.turn.json");
    const doc = fake.openDocument(uri);
    fake.editDocument(doc, JSON.stringify({ offered: ["a"], expect: { names: ["a"] } }));
    tests.dispose();
    await settle();
    expect(leaf("/ws/b/no-expect.turn.json")).toBeUndefined();
  });
});

describe("Testing view, discovery and identity", () => {
  const groupLabels = () => {
    const labels: string[] = [];
    items().forEach((group) => labels.push(group.label));
    return labels.sort();
  };

  it("names its failure messages with the context value package.json's Testing menus use", async () => {
    const { readFile } = await import("node:fs/promises");
    const manifest = await readFile(new URL("../../package.json", import.meta.url), "utf8");
    expect(manifest).toContain(`"testMessage == ${MISMATCH_CONTEXT}"`);
  });

  it("shows its tests under the name 'Palette Inspector fixtures'", () => {
    expect(tests.controller.label).toBe("Palette Inspector fixtures");
  });

  it("leaves out fixtures under node_modules, .git, dist and out", async () => {
    for (const folder of ["node_modules/pkg", ".git", "dist", "out"])
      fake.files.set(Uri.file(`/ws/${folder}/x.turn.json`).toString(), JSON.stringify(passing));
    await tests.discover();
    expect(groupLabels()).toEqual(["a", "b"]);
  });

  it("keeps the same test item when its fixture changes, so the view keeps its place", async () => {
    const item = leaf("/ws/a/pass.turn.json")!;
    fake.writeFile("/ws/a/pass.turn.json", JSON.stringify(failing));
    await settle();
    expect(leaf("/ws/a/pass.turn.json")).toBe(item);
  });

  it("forgets a fixture that can no longer be read", async () => {
    fake.files.delete(Uri.file("/ws/a/pass.turn.json").toString());
    await tests.update(Uri.file("/ws/a/pass.turn.json") as unknown as vscode.Uri);
    expect(leaf("/ws/a/pass.turn.json")).toBeUndefined();
    expect(leaf("/ws/a/fail.turn.json")).toBeDefined();
  });

  it("a fixture without expect in a new folder adds no empty group", async () => {
    fake.writeFile("/ws/e/plain.turn.json", JSON.stringify({ offered: ["a"] }));
    await settle();
    expect(groupLabels()).toEqual(["a", "b"]);
  });

  it("names a test after its file without the .turn.json ending only", async () => {
    fake.writeFile("/ws/a/v2.turn.json.old.turn.json", JSON.stringify(passing));
    await settle();
    expect(leaf("/ws/a/v2.turn.json.old.turn.json")!.label).toBe("v2.turn.json.old");
  });

  it("runFile does nothing for a fixture that is not a test", async () => {
    await tests.runFile(Uri.file("/ws/b/no-expect.turn.json") as unknown as vscode.Uri);
    expect(testRuns).toEqual([]);
  });

  it("lists fixtures when no folder is open, each group labelled by its path", async () => {
    fake.workspaceFolders.length = 0;
    fake.writeFile("/elsewhere/z.turn.json", JSON.stringify(passing));
    await settle();
    expect(leaf("/elsewhere/z.turn.json")!.parent!.label).toBe("/elsewhere");
  });
});
