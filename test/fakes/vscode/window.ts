/** `vscode.window`: notifications, pickers, dialogs, editors, output channels, tree views, progress. */
import type * as vscode from "vscode";
import { Disposable, EventEmitter, type Range, type Uri } from "./core.js";
import { FakeDocument } from "./documents.js";
import { fake } from "./state.js";
import { type FakeWebviewPanel, webviewFake } from "./webview.js";
import { workspace } from "./workspace.js";

async function answer<T>(queue: T[]): Promise<T | undefined> {
  return queue.shift();
}

/** Records a notification; answers from the queue only when it offers choices. */
async function show(
  kind: "info" | "warning" | "error",
  message: string,
  items: unknown[],
): Promise<string | undefined> {
  const first = items[0];
  const options =
    typeof first === "object" && first !== null
      ? (items.shift() as { modal?: boolean; detail?: string })
      : undefined;
  fake.shown.push({
    kind,
    message,
    ...(options?.modal ? { modal: true } : {}),
    ...(options?.detail !== undefined ? { detail: options.detail } : {}),
  });
  if (items.length === 0) return undefined;
  const chosen = await answer(fake.answers.message);
  // VS Code answers with one of the offered buttons or undefined: a test answering otherwise is wrong.
  if (chosen !== undefined && !items.includes(chosen))
    throw new Error(
      `the test answered '${chosen}', but the message offers ${JSON.stringify(items)}`,
    );
  return chosen;
}

export const window = {
  showInformationMessage: (message: string, ...items: unknown[]) => show("info", message, items),
  showWarningMessage: (message: string, ...items: unknown[]) => show("warning", message, items),
  showErrorMessage: (message: string, ...items: unknown[]) => show("error", message, items),
  showInputBox: (options?: unknown) => {
    fake.inputBoxes.push(options as FakeInputBoxOptions);
    return answer(fake.answers.inputBox);
  },
  /** A queued function answers by picking from the items it is given. */
  showQuickPick: async (items: unknown, options?: unknown) => {
    fake.quickPicks.push({ items: (await items) as unknown[], options });
    const picked = await answer(fake.answers.quickPick);
    return typeof picked === "function" ? picked(await items) : picked;
  },
  showSaveDialog: (options?: vscode.SaveDialogOptions) => {
    fake.dialogs.push(options);
    return answer(fake.answers.saveDialog);
  },
  showOpenDialog: async (options?: vscode.OpenDialogOptions) => {
    fake.dialogs.push(options);
    const picked = await answer(fake.answers.saveDialog);
    return picked ? [picked] : undefined;
  },
  async showTextDocument(target: Uri | FakeDocument, options?: vscode.TextDocumentShowOptions) {
    const document =
      target instanceof FakeDocument ? target : await workspace.openTextDocument(target);
    fake.shownDocuments.push({
      uri: document.uri,
      selection: options?.selection as Range | undefined,
      options,
    });
    return { document };
  },
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  createOutputChannel(name: string, options?: string | { log: true }) {
    // Looked up on every write, so a channel cached across tests still records after `fake.reset()`.
    const lines = () => {
      if (!fake.outputs.has(name)) fake.outputs.set(name, []);
      return fake.outputs.get(name)!;
    };
    lines();
    const at = (level: (typeof fake.logLines)[number]["level"]) => (text: string) => {
      lines().push(text);
      fake.logLines.push({ channel: name, level, text });
    };
    const channel = {
      name,
      appendLine: at("line"),
      show(preserveFocus?: boolean) {
        fake.shownOutputs.push({ name, preserveFocus });
      },
      dispose() {
        fake.disposedOutputs.push(name);
      },
    };
    // As in VS Code, only a channel created with `{ log: true }` has a method per log level.
    if (typeof options !== "object" || options.log !== true) return channel;
    return {
      ...channel,
      info: at("info"),
      warn: at("warn"),
      error: at("error"),
      debug: at("debug"),
      trace: at("trace"),
    };
  },
  /** Status bar items, recorded in `fake.statusBarItems` as they are now. */
  createStatusBarItem(alignment?: StatusBarAlignment, priority?: number) {
    const item = {
      alignment,
      priority,
      text: "",
      tooltip: undefined as string | undefined,
      command: undefined as string | undefined,
      name: undefined as string | undefined,
      visible: false,
      disposed: false,
      show() {
        item.visible = true;
      },
      hide() {
        item.visible = false;
      },
      dispose() {
        item.disposed = true;
        item.visible = false;
      },
    };
    fake.statusBarItems.push(item);
    return item;
  },
  createTreeView(id: string, options: vscode.TreeViewOptions<unknown>) {
    const revealed: { element: unknown; options: unknown }[] = [];
    const visibility = new EventEmitter<{ visible: boolean }>();
    const view = {
      options,
      visible: true,
      badge: undefined as vscode.ViewBadge | undefined,
      onDidChangeVisibility: visibility.event,
      /** Shows or hides the view, as the user switching to it or away does. */
      setVisible(visible: boolean) {
        view.visible = visible;
        visibility.fire({ visible });
      },
      selection: [] as unknown[],
      revealed,
      reveal: async (element: unknown, options?: unknown) =>
        void revealed.push({ element, options }),
      dispose() {},
    };
    fake.treeViews.set(id, view);
    return view;
  },
  createWebviewPanel: (viewType: string, title: string, column?: unknown, options?: unknown) =>
    webviewFake.create(viewType, title, options, column),
  registerWebviewPanelSerializer: (
    viewType: string,
    serializer: { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> },
  ) => {
    webviewFake.serializers.set(viewType, serializer);
    return new Disposable(() => webviewFake.serializers.delete(viewType));
  },
  async withProgress<T>(
    options: { title?: string; cancellable?: boolean; location: unknown },
    task: (
      progress: { report(value: { message?: string; increment?: number }): void },
      token: {
        isCancellationRequested: boolean;
        onCancellationRequested: EventEmitter<void>["event"];
      },
    ) => Promise<T>,
  ): Promise<T> {
    const cancel = new EventEmitter<void>();
    const record = {
      title: options.title ?? "",
      cancellable: options.cancellable ?? false,
      location: options.location,
      messages: [] as string[],
      increments: [] as number[],
      cancel: () => cancel.fire(),
      get cancelListeners() {
        return cancel.listenerCount;
      },
    };
    fake.progress.push(record);
    const cancelled = fake.cancelNextProgress;
    fake.cancelNextProgress = false;
    return task(
      {
        report(value) {
          if (value.message !== undefined) record.messages.push(value.message);
          if (value.increment !== undefined) record.increments.push(value.increment);
        },
      },
      { isCancellationRequested: cancelled, onCancellationRequested: cancel.event },
    );
  },
};

export interface FakeInputBoxOptions {
  readonly title?: string;
  readonly value?: string;
  readonly valueSelection?: [number, number];
  readonly prompt?: string;
  readonly validateInput?: (value: string) => string | undefined;
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  description?: string;
  tooltip?: string;
  iconPath?: unknown;
  contextValue?: string;
  resourceUri?: Uri;
  id?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}
