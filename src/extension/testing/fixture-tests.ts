import * as vscode from "vscode";
import { FIXTURE_GLOB, isFixturePath, SKIPPED_GLOB } from "../../core/fixture/files.js";
import { checkExpectations, type Mismatch } from "../../core/expect.js";
import type { Fixture } from "../../core/fixture/load.js";
import { problemMessage } from "../../core/fixture/problems.js";
import { formatJsonPath } from "../../core/json/positions.js";
import { formatWaterfallTable } from "../../core/render/table.js";
import { runFixture } from "../../core/run-fixture.js";
import { toRange } from "../convert.js";
import { loadFixtureFromUri, readSource } from "../fixtures.js";
import { notice, unawaited } from "../notify.js";

/** The context value of a failure's diff messages: the command is on their context menu only, since a button in a message's content floats over the diff's Actual lines. */
export const MISMATCH_CONTEXT = "paletteInspector.fixtureMismatch";

/**
 * True when the text is a fixture that states expectations, or cannot be read as JSON (so its
 * error shows when it runs). Only JSON.parse: discovery never locates a broken file's error.
 */
export function isRegressionTest(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return true;
  }
  // Arrays and primitives never have an own "expect"; instanceof also rules out null.
  return value instanceof Object && Object.hasOwn(value, "expect");
}

/** The expected and actual side of one mismatch, as JSON the diff view can show. */
function diffText(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * A group's label: its path in the workspace, or the workspace folder's name for the folder
 * itself (`asRelativePath` returns a workspace folder's own absolute path unchanged).
 */
function folderLabel(folder: vscode.Uri): string {
  const root = vscode.workspace.workspaceFolders?.find(
    (candidate) => candidate.uri.toString() === folder.toString(),
  );
  return root?.name ?? vscode.workspace.asRelativePath(folder);
}

/**
 * One failed expectation as its diff, the message a double click shows. VS Code writes a diff's
 * message as plain text, so "Show Selection Trace" is on its context menu (MISMATCH_CONTEXT), not
 * a link in it nor a message of its own that the peek would open on instead.
 */
function failureMessage(uri: vscode.Uri, fixture: Fixture, mismatch: Mismatch): vscode.TestMessage {
  const message = vscode.TestMessage.diff(
    `${formatJsonPath(mismatch.path)}: ${mismatch.message}`,
    diffText(mismatch.expected),
    diffText(mismatch.actual),
  );
  message.location = new vscode.Location(uri, toRange(fixture.locate(mismatch.path, true)));
  message.contextValue = MISMATCH_CONTEXT;
  return message;
}

/**
 * Every fixture with an `expect` block, grouped by folder, as tests in VS Code's Testing view;
 * kept in step with files on disk and with unsaved edits.
 */
export class FixtureTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController(
    "paletteInspector.fixtures",
    "Palette Inspector fixtures",
  );
  private readonly continuous = new Set<{
    request: vscode.TestRunRequest;
    token: vscode.CancellationToken;
  }>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly typing = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly typingDelayMs = 250) {
    this.controller.createRunProfile(
      "Run fixtures",
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token),
      true,
      undefined,
      true,
    );
    this.controller.refreshHandler = () => this.discover();
    const watcher = vscode.workspace.createFileSystemWatcher(FIXTURE_GLOB);
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => this.updateLater(uri)),
      watcher.onDidChange((uri) => this.updateLater(uri)),
      watcher.onDidDelete((uri) => this.remove(uri)),
      vscode.workspace.onDidChangeTextDocument((event) => this.typed(event.document.uri)),
    );
  }

  /** Finds every fixture in the workspace. */
  async discover(): Promise<void> {
    const uris = await vscode.workspace.findFiles(FIXTURE_GLOB, SKIPPED_GLOB);
    await Promise.all(uris.map((uri) => this.update(uri)));
  }

  /** `update` for an event or a timer, which nobody awaits. */
  private updateLater(uri: vscode.Uri): void {
    unawaited(
      this.update(uri),
      notice`reading the fixture ${vscode.workspace.asRelativePath(uri)} failed`,
    );
  }

  /** Adds, refreshes or removes the test for one fixture after it changed. */
  async update(uri: vscode.Uri): Promise<void> {
    let source;
    try {
      source = await readSource(uri);
    } catch {
      this.remove(uri);
      return;
    }
    // A file too large or not UTF-8 stays a test: running it shows why it cannot be read.
    if ("text" in source && !isRegressionTest(source.text)) {
      this.remove(uri);
      return;
    }
    const group = this.groupFor(uri);
    let item = group.children.get(uri.toString());
    if (!item) {
      item = this.controller.createTestItem(
        uri.toString(),
        uri.path
          .split("/")
          .pop()!
          .replace(/\.turn\.json$/, ""),
        uri,
      );
      group.children.add(item);
    }
    item.range = new vscode.Range(0, 0, 0, 0);
    this.controller.invalidateTestResults(item);
    for (const entry of this.continuous) {
      if (entry.token.isCancellationRequested) this.continuous.delete(entry);
      else if (
        !entry.request.include ||
        entry.request.include.some((included) => included === item || included === item!.parent)
      ) {
        await this.run(
          new vscode.TestRunRequest([item], undefined, entry.request.profile),
          entry.token,
        );
      }
    }
  }

  /** Runs one fixture's test now (after Update Expectation), so its result is never left outdated. */
  async runFile(uri: vscode.Uri): Promise<void> {
    await this.update(uri);
    const item = this.groupFor(uri).children.get(uri.toString());
    if (!item) return;
    const source = new vscode.CancellationTokenSource();
    try {
      await this.run(new vscode.TestRunRequest([item]), source.token);
    } finally {
      source.dispose();
    }
  }

  /** Unsaved edits count too, once the user pauses typing. */
  private typed(uri: vscode.Uri): void {
    if (!isFixturePath(uri.path)) return;
    const key = uri.toString();
    clearTimeout(this.typing.get(key));
    this.typing.set(
      key,
      setTimeout(() => {
        this.typing.delete(key);
        this.updateLater(uri);
      }, this.typingDelayMs),
    );
  }

  private groupFor(uri: vscode.Uri): vscode.TestItem {
    const folder = vscode.Uri.joinPath(uri, "..");
    const id = `folder:${folder.toString()}`;
    let group = this.controller.items.get(id);
    if (!group) {
      group = this.controller.createTestItem(id, folderLabel(folder), folder);
      this.controller.items.add(group);
    }
    return group;
  }

  private remove(uri: vscode.Uri): void {
    const group = this.controller.items.get(`folder:${vscode.Uri.joinPath(uri, "..").toString()}`);
    if (!group) return;
    group.children.delete(uri.toString());
    if (group.children.size === 0) this.controller.items.delete(group.id);
  }

  /** Runs the requested fixtures (all when none is named); a continuous request re-runs on change. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (request.continuous) {
      this.continuous.add({ request, token });
      return;
    }
    const run = this.controller.createTestRun(request);
    const excluded = new Set(request.exclude ?? []);
    const leaves: vscode.TestItem[] = [];
    const collect = (item: vscode.TestItem) => {
      if (excluded.has(item)) return;
      if (!item.id.startsWith("folder:")) leaves.push(item);
      item.children.forEach(collect);
    };
    if (request.include) request.include.forEach(collect);
    else this.controller.items.forEach(collect);
    for (const item of leaves) {
      if (token.isCancellationRequested) {
        run.skipped(item);
        continue;
      }
      run.started(item);
      await this.runOne(item, run);
    }
    run.end();
  }

  private async runOne(item: vscode.TestItem, run: vscode.TestRun): Promise<void> {
    const uri = item.uri!;
    const loaded = await loadFixtureFromUri(uri);
    if (!loaded.ok) {
      const errors = loaded.problems.filter((problem) => problem.severity === "error");
      run.errored(
        item,
        errors.map((problem) => {
          const message = new vscode.TestMessage(problemMessage(problem));
          message.location = new vscode.Location(
            vscode.Uri.parse(problem.file),
            toRange(problem.range),
          );
          return message;
        }),
      );
      return;
    }
    const report = runFixture(loaded.fixture);
    // The Test Results terminal shows the run's waterfall beside the verdict (it wants CRLF).
    run.appendOutput(
      formatWaterfallTable(report, { color: true }).replace(/\n/g, "\r\n"),
      undefined,
      item,
    );
    const mismatches = checkExpectations(loaded.fixture.json.expect, report);
    if (mismatches.length === 0) run.passed(item, report.durationMs);
    else {
      const diffs = mismatches.map((mismatch) => failureMessage(uri, loaded.fixture, mismatch));
      run.failed(item, diffs, report.durationMs);
    }
  }

  dispose(): void {
    for (const timer of this.typing.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.controller.dispose();
  }
}
