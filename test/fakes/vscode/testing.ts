/** `vscode.tests`: test controllers, items and the runs they record. */
import type { Location, MarkdownString, Range, Uri } from "./core.js";

export class TestMessage {
  expectedOutput?: string;
  actualOutput?: string;
  location?: Location;
  contextValue?: string;
  constructor(readonly message: string | MarkdownString) {}
  static diff(message: string | MarkdownString, expected: string, actual: string): TestMessage {
    const result = new TestMessage(message);
    result.expectedOutput = expected;
    result.actualOutput = actual;
    return result;
  }
}

export enum TestRunProfileKind {
  Run = 1,
  Debug = 2,
  Coverage = 3,
}

export class TestRunRequest {
  constructor(
    readonly include?: readonly FakeTestItem[],
    readonly exclude?: readonly FakeTestItem[],
    readonly profile?: unknown,
    readonly continuous?: boolean,
  ) {}
}

export class FakeTestItem {
  readonly children = new FakeTestItemCollection(this);
  parent: FakeTestItem | undefined;
  description?: string;
  range?: Range;
  error?: string;
  constructor(
    readonly id: string,
    public label: string,
    readonly uri?: Uri,
  ) {}
}

class FakeTestItemCollection {
  private readonly items = new Map<string, FakeTestItem>();
  constructor(private readonly owner: FakeTestItem | null) {}
  get size(): number {
    return this.items.size;
  }
  add(item: FakeTestItem): void {
    item.parent = this.owner ?? undefined;
    this.items.set(item.id, item);
  }
  delete(id: string): void {
    this.items.delete(id);
  }
  get(id: string): FakeTestItem | undefined {
    return this.items.get(id);
  }
  replace(items: readonly FakeTestItem[]): void {
    this.items.clear();
    for (const item of items) this.add(item);
  }
  forEach(callback: (item: FakeTestItem) => void): void {
    [...this.items.values()].forEach(callback);
  }
  [Symbol.iterator](): Iterator<[string, FakeTestItem]> {
    return this.items[Symbol.iterator]();
  }
}

/** One recorded test run: what each item ended as, with its messages. */
export interface FakeTestRun {
  readonly request: TestRunRequest;
  readonly results: {
    item: FakeTestItem;
    state: "started" | "passed" | "failed" | "errored" | "skipped";
    messages: TestMessage[];
  }[];
  readonly output: { output: string; item?: FakeTestItem }[];
  ended: boolean;
}

export const testRuns: FakeTestRun[] = [];

/** Every test controller the host created, in order (cleared by `fake.reset()`). */
export const testControllers: { id: string; items: FakeTestItemCollection }[] = [];

export const tests = {
  createTestController(id: string, label: string) {
    const controller = {
      id,
      label,
      items: new FakeTestItemCollection(null),
      profiles: [] as {
        label: string;
        kind: TestRunProfileKind;
        isDefault: boolean;
        runHandler: (request: TestRunRequest, token: unknown) => unknown;
        supportsContinuousRun: boolean;
      }[],
      invalidated: [] as (FakeTestItem | undefined)[],
      refreshHandler: undefined as (() => unknown) | undefined,
      createTestItem: (itemId: string, itemLabel: string, uri?: Uri) =>
        new FakeTestItem(itemId, itemLabel, uri),
      createRunProfile(
        label: string,
        kind: TestRunProfileKind,
        runHandler: (request: TestRunRequest, token: unknown) => unknown,
        isDefault = false,
        _tag?: unknown,
        supportsContinuousRun = false,
      ) {
        const profile = {
          label,
          kind,
          runHandler,
          isDefault,
          supportsContinuousRun,
          dispose() {},
        };
        controller.profiles.push(profile);
        return profile;
      },
      createTestRun(request: TestRunRequest) {
        const record: FakeTestRun = { request, results: [], output: [], ended: false };
        testRuns.push(record);
        const set =
          (state: FakeTestRun["results"][number]["state"]) =>
          (item: FakeTestItem, message?: TestMessage | TestMessage[]) => {
            record.results.push({
              item,
              state,
              messages: message === undefined ? [] : Array.isArray(message) ? message : [message],
            });
          };
        return {
          started: set("started"),
          passed: set("passed"),
          failed: set("failed"),
          errored: set("errored"),
          skipped: set("skipped"),
          appendOutput(output: string, _location?: unknown, item?: FakeTestItem) {
            record.output.push({ output, item });
          },
          end() {
            record.ended = true;
          },
        };
      },
      invalidateTestResults(item?: FakeTestItem) {
        controller.invalidated.push(item);
      },
      dispose() {},
    };
    testControllers.push(controller);
    return controller;
  },
};
