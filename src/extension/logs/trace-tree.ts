import * as vscode from "vscode";
import type { FileStamp, LogProblem } from "../../node/log-file.js";
import type { LogStats } from "../stats/read-stats.js";
import type { TraceIndex, TraceRow } from "../../node/trace-index.js";
import type { TurnSpool } from "../../node/turn-spool.js";
import type { StageAction } from "../../core/contract.js";
import { baseName, counted } from "../../core/words.js";
import { log, neutralise } from "../notify.js";
import { describeFilter, type TraceFilter } from "./filter.js";

/** Traces are listed a page at a time so a log with a million of them stays responsive. */
export const PAGE_SIZE = 500;
/** Where the opened sets are kept so that the view survives a window reload. */
export const OPENED_SETS_KEY = "paletteInspector.openedLogSets";

/** Logs opened together (one file, several, or a folder's): one list, numbered across the files. */
export interface LogSet {
  /** What was opened (files and folders): what a reload scans again. */
  readonly roots: readonly vscode.Uri[];
  /** The files read, in order: a folder's logs in place of the folder. */
  readonly files: readonly vscode.Uri[];
  readonly index: TraceIndex;
  /** The scan stopped on Cancel before the last file's end: the list is partial. */
  readonly cancelled: boolean;
  /** Still being scanned: its traces are listed as they are found. */
  readonly scanning?: boolean;
  /** Share of the bytes read, in percent, while scanning or where the scan was cancelled. */
  readonly percent?: number;
  /** A scan read to its end: its statistics, and the files' stamps then (to tell a change). */
  readonly scanned?: { readonly stats: LogStats; readonly stamps: readonly (FileStamp | null)[] };
}

/** A live source's turns as they come (the OTLP receiver, a followed log), the newest kept. */
export interface LiveGroup {
  /** Unique among the groups: the tree item's id. */
  readonly key: string;
  /** Fixed wording and neutralised names. */
  readonly label: string;
  readonly spool: TurnSpool;
  /** The followed log; null for turns received over OpenTelemetry. */
  readonly file: vscode.Uri | null;
  /** What it is doing now, e.g. "listening on 127.0.0.1:4318" or "stopped". */
  state: string;
}

export type TraceNode =
  | { readonly kind: "live"; readonly group: LiveGroup }
  | { readonly kind: "turn"; readonly group: LiveGroup; readonly number: number }
  | { readonly kind: "older"; readonly group: LiveGroup; readonly remaining: number }
  | { readonly kind: "set"; readonly set: LogSet }
  | { readonly kind: "trace"; readonly set: LogSet; readonly index: number }
  | {
      readonly kind: "more";
      readonly set: LogSet;
      readonly shown: number;
      readonly remaining: number;
    }
  | { readonly kind: "problems"; readonly set: LogSet }
  | { readonly kind: "problem"; readonly set: LogSet; readonly problem: LogProblem };

export type TraceItemNode = Extract<TraceNode, { kind: "trace" }>;
export type TurnNode = Extract<TraceNode, { kind: "turn" }>;

/** The one number a logged trace has everywhere in the extension: 1-based across its set. */
export function traceNumber(index: number): string {
  return `#${index + 1}`;
}

/** The log file a listed trace came from. */
export function traceFile(node: TraceItemNode): vscode.Uri {
  return node.set.files[node.set.index.fileOf(node.index)]!;
}

export function setKey(roots: readonly vscode.Uri[]): string {
  return roots.map(String).join("\n");
}

/** Text from a log in a label: one line, no control or bidi characters, bounded. */
const LABEL_CHARS = 80;
const PROBLEM_CHARS = 240;
function plain(value: string): string {
  return neutralise(value, LABEL_CHARS);
}

/** What a reader looks for first: the number, the turn, how many tools it was left with, the forced one. */
export function traceLabel(row: TraceRow): string {
  const tools = counted(row.finalCount, "tool");
  const forced = row.forcedChoice === null ? "" : ` · forced ${plain(row.forcedChoice)}`;
  const turn = row.id === null ? "" : ` · ${plain(row.id)}`;
  return `${traceNumber(row.index)}${turn} · ${tools}${forced}`;
}

/**
 * Time and where: `2025-03-14 09:27:04 · line 11` (`app.log.1:11` in a set of files); a trace
 * that shares its line with another says which of the line's values it is (`line 11, value 2`).
 */
export function traceDescription(row: TraceRow, set: LogSet, shared = false): string {
  const place =
    set.files.length > 1
      ? `${plain(baseName(set.files[row.file]!.path))}:${row.line}`
      : `line ${row.line}`;
  const where = shared ? `${place}, value ${row.ordinal + 1}` : place;
  const time = row.time === null ? null : plain(row.time);
  return [time, where].filter((part) => part !== null).join(" · ");
}

/** What a screen reader says of a trace or a live turn: each one its own, plurals right. */
function traceAccessibility(row: TraceRow, where: string | null): vscode.AccessibilityInformation {
  return {
    label: [
      `Trace ${traceNumber(row.index)}`,
      row.id === null ? null : `turn ${plain(row.id)}`,
      counted(row.finalCount, "tool"),
      row.forcedChoice === null ? null : `forced ${plain(row.forcedChoice)}`,
      where,
      row.time === null ? null : plain(row.time),
      counted(row.stageCount, "stage"),
      row.error ? "failed" : null,
      row.degraded ? "degraded" : null,
    ]
      .filter((part) => part !== null)
      .join(", "),
  };
}

/** The "Selection Traces" view: one entry per set of logs, its traces filterable, then its problems. */
/** Tool and stage names of the listed logs, each with how many traces show it. */
export interface FilterChoices {
  readonly dropped: ReadonlyMap<string, number>;
  readonly stages: ReadonlyMap<string, ReadonlyMap<StageAction, number>>;
}

export class TraceTree implements vscode.TreeDataProvider<TraceNode> {
  private readonly changed = new vscode.EventEmitter<TraceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Each set with its pages shown and its own filter: a set scanned later starts unfiltered. */
  private readonly sets = new Map<
    string,
    { set: LogSet; pages: number; filter: TraceFilter | null }
  >();
  /** The live groups, each with how many pages of its newest turns are listed. */
  private readonly live = new Map<string, { group: LiveGroup; pages: number }>();
  /** The traces a set's filter lets through, and the count of traces they were taken from. */
  private readonly visibleCache = new WeakMap<LogSet, { of: number; visible: Uint32Array }>();

  /** `state`: where the opened sets are remembered (the workspace's state). */
  constructor(private readonly state?: vscode.Memento) {}

  /** The sets opened before the window was reloaded, to scan again. */
  savedSets(): vscode.Uri[][] {
    const saved = this.state?.get<unknown>(OPENED_SETS_KEY);
    if (!Array.isArray(saved)) return [];
    return saved
      .filter(
        (roots): roots is string[] =>
          Array.isArray(roots) && roots.every((root) => typeof root === "string"),
      )
      .map((roots) => roots.map((root) => vscode.Uri.parse(root)));
  }

  /** Shows (or replaces) a set, unfiltered. */
  setSet(set: LogSet): void {
    this.sets.set(setKey(set.roots), { set, pages: 1, filter: null });
    this.saved();
  }

  /** A set being scanned found more traces, or its scan ended. */
  grew(set: LogSet): void {
    if (this.sets.get(setKey(set.roots))?.set === set) this.changed.fire(undefined);
  }

  /** Lists a live group (first in the view) or shows it again as it is now. */
  setLive(group: LiveGroup): void {
    if (!this.live.has(group.key)) this.live.set(group.key, { group, pages: 1 });
    this.changed.fire(undefined);
  }

  removeLive(group: LiveGroup): void {
    if (this.live.delete(group.key)) this.changed.fire(undefined);
  }

  /** The live group of this key, if listed. */
  liveGroup(key: string): LiveGroup | undefined {
    return this.live.get(key)?.group;
  }

  /** The set listed for these roots, if one is. */
  setOf(roots: readonly vscode.Uri[]): LogSet | undefined {
    return this.sets.get(setKey(roots))?.set;
  }

  removeSet(set: LogSet): void {
    this.sets.delete(setKey(set.roots));
    this.saved();
  }

  /** Stops remembering a saved set that can no longer be read (its logs are gone). */
  forget(roots: readonly vscode.Uri[]): void {
    const key = setKey(roots);
    this.remember(
      this.savedSets()
        .filter((saved) => setKey(saved) !== key)
        .map((saved) => saved.map(String)),
    );
  }

  /** What the listed logs contain, for the filter pickers: dropped tools and each stage's actions, counted by trace. */
  filterChoices(): FilterChoices {
    const dropped = new Map<string, number>();
    const stages = new Map<string, Map<StageAction, number>>();
    for (const { set } of this.sets.values()) {
      const choices = set.index.filterChoices();
      for (const [tool, n] of choices.dropped) dropped.set(tool, (dropped.get(tool) ?? 0) + n);
      for (const [stage, actions] of choices.stages) {
        const into = stages.get(stage) ?? new Map<StageAction, number>();
        for (const [action, n] of actions) into.set(action, (into.get(action) ?? 0) + n);
        stages.set(stage, into);
      }
    }
    return { dropped, stages };
  }

  /** The filter of the listed sets (those listed when it was set), null when none is filtered. */
  get filter(): TraceFilter | null {
    for (const { filter } of this.sets.values()) if (filter !== null) return filter;
    return null;
  }

  /** Filters every set listed now (or only `only`); a set scanned later is not filtered by it. */
  setFilter(filter: TraceFilter | null, only?: LogSet): void {
    for (const entry of this.sets.values()) {
      if (only && entry.set !== only) continue;
      entry.filter = filter;
      this.visibleCache.delete(entry.set);
    }
    this.changed.fire(undefined);
  }

  /** Lists enough pages of a set for the trace at this position of its visible list. */
  showPosition(set: LogSet, position: number): void {
    const entry = this.sets.get(setKey(set.roots));
    if (!entry) return;
    entry.pages = Math.max(entry.pages, Math.floor(position / PAGE_SIZE) + 1);
    this.changed.fire(undefined);
  }

  showMore(set: LogSet | LiveGroup): void {
    if ("spool" in set) {
      const live = this.live.get(set.key);
      if (live) live.pages++;
      return void this.changed.fire(undefined);
    }
    const entry = this.sets.get(setKey(set.roots));
    if (!entry) return;
    entry.pages++;
    this.changed.fire(undefined);
  }

  /** The traces of a set that its filter lets through, in order (again when it has grown). */
  visible(set: LogSet): Uint32Array {
    const cached = this.visibleCache.get(set);
    if (cached && cached.of === set.index.count) return cached.visible;
    const filter = this.sets.get(setKey(set.roots))?.filter ?? null;
    const visible = set.index.matching(filter);
    this.visibleCache.set(set, { of: set.index.count, visible });
    return visible;
  }

  /** The entry a trace has in the view, to reveal it. */
  getParent(node: TraceNode): TraceNode | undefined {
    if (node.kind === "live") return undefined;
    if (node.kind === "turn" || node.kind === "older") return { kind: "live", group: node.group };
    return node.kind === "set"
      ? undefined
      : node.kind === "problem"
        ? { kind: "problems", set: node.set }
        : { kind: "set", set: node.set };
  }

  /** The number of the trace starting at a line of a file, in the set it is listed in. */
  listedIndex(file: vscode.Uri, line: number): number | undefined {
    for (const { set } of this.sets.values()) {
      const position = set.files.findIndex((uri) => uri.toString() === file.toString());
      const found = position === -1 ? undefined : set.index.find(position, line);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  getChildren(node?: TraceNode): TraceNode[] {
    if (!node)
      return [
        ...[...this.live.values()].map(({ group }) => ({ kind: "live", group }) as const),
        ...[...this.sets.values()].map(({ set }) => ({ kind: "set", set }) as const),
      ];
    if (node.kind === "live") return this.turns(node.group);
    if (node.kind === "set") {
      const { set } = node;
      const pages = this.sets.get(setKey(set.roots))?.pages ?? 1;
      const visible = this.visible(set);
      const shown = Math.min(visible.length, pages * PAGE_SIZE);
      const children: TraceNode[] = [];
      for (let k = 0; k < shown; k++) children.push({ kind: "trace", set, index: visible[k]! });
      if (visible.length > shown)
        children.push({ kind: "more", set, shown, remaining: visible.length - shown });
      if (set.index.problemCount > 0) children.push({ kind: "problems", set });
      return children;
    }
    if (node.kind === "problems")
      return node.set.index.problems.map((problem) => ({
        kind: "problem",
        set: node.set,
        problem,
      }));
    return [];
  }

  getTreeItem(node: TraceNode): vscode.TreeItem {
    switch (node.kind) {
      case "live":
        return this.liveItem(node.group);
      case "turn":
        return this.turnItem(node);
      case "older": {
        const item = new vscode.TreeItem(
          `Show ${Math.min(PAGE_SIZE, node.remaining)} older (${node.remaining} kept, not shown)`,
        );
        item.command = {
          command: "paletteInspector.showMoreTraces",
          title: "Show more",
          arguments: [node.group],
        };
        item.iconPath = new vscode.ThemeIcon("ellipsis");
        return item;
      }
      case "set":
        return this.setItem(node.set);
      case "trace":
        return this.traceItem(node);
      case "more": {
        const item = new vscode.TreeItem(
          `Show ${Math.min(PAGE_SIZE, node.remaining)} more (${node.remaining} not shown)`,
        );
        item.command = {
          command: "paletteInspector.showMoreTraces",
          title: "Show more",
          arguments: [node.set],
        };
        item.iconPath = new vscode.ThemeIcon("ellipsis");
        return item;
      }
      case "problems": {
        const item = new vscode.TreeItem(
          `Problems (${node.set.index.problemCount})`,
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.iconPath = new vscode.ThemeIcon("warning");
        return item;
      }
      case "problem":
        return this.problemItem(node.set, node.problem);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Saves the sets to reopen after a reload; losing that is worth a line in the log, not a dialog. */
  private remember(sets: string[][]): void {
    this.state
      ?.update(OPENED_SETS_KEY, sets)
      .then(undefined, (error: unknown) =>
        log().warn(`could not remember the opened logs: ${String(error)}`),
      );
  }

  private saved(): void {
    this.remember([...this.sets.values()].map(({ set }) => set.roots.map(String)));
    this.changed.fire(undefined);
  }

  private setItem(set: LogSet): vscode.TreeItem {
    const [first, ...others] = set.roots;
    const label =
      plain(vscode.workspace.asRelativePath(first!)) +
      (others.length > 0 ? ` + ${others.length} more` : "");
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = setKey(set.roots);
    const count = set.index.count;
    const filter = this.sets.get(setKey(set.roots))?.filter ?? null;
    const filtered = filter ? `${describeFilter(filter)}: ${this.visible(set).length} of ` : "";
    const files = set.files.length === 1 ? "" : ` in ${set.files.length} files`;
    const state = set.scanning
      ? ` so far (scanning, ${set.percent ?? 0}%)`
      : set.cancelled
        ? ` (scan cancelled${set.percent === undefined ? "" : ` at ${set.percent}%`}: partial list)`
        : "";
    item.description = `${filtered}${counted(count, "trace")}${files}${state}`;
    item.tooltip = set.files.map((uri) => vscode.workspace.asRelativePath(uri)).join("\n");
    item.iconPath = new vscode.ThemeIcon(set.files.length === 1 ? "output" : "files");
    if (set.roots.length === 1) item.resourceUri = first;
    item.contextValue = "paletteInspector.logSet";
    return item;
  }

  private traceItem(node: TraceItemNode): vscode.TreeItem {
    const { set } = node;
    const row = set.index.row(node.index);
    const stages = set.index.stagesOf(node.index);
    const item = new vscode.TreeItem(traceLabel(row), vscode.TreeItemCollapsibleState.None);
    // Stable across refreshes, so that "Go to Trace" can reveal it.
    item.id = `${setKey(set.roots)}\n#${node.index}`;
    item.description = traceDescription(row, set, sharesItsLine(set, node.index));
    item.tooltip = [
      `${traceNumber(row.index)} · ${vscode.workspace.asRelativePath(set.files[row.file]!)}:${row.line}`,
      ...stages.map((stage) => `${plain(stage.stage)}: ${stage.action}`),
    ].join("\n");
    item.iconPath = traceIcon(row);
    item.contextValue = "paletteInspector.trace";
    item.command = openTraceCommand(node);
    const where = `line ${row.line}${set.files.length > 1 ? ` of ${baseName(set.files[row.file]!.path)}` : ""}`;
    item.accessibilityInformation = traceAccessibility(row, where);
    return item;
  }

  /** The newest pages of a group's kept turns, newest last, after an entry for the older ones. */
  private turns(group: LiveGroup): TraceNode[] {
    const pages = this.live.get(group.key)?.pages ?? 1;
    const { spool } = group;
    const shown = Math.min(spool.count, pages * PAGE_SIZE);
    const from = spool.received - shown;
    const children: TraceNode[] = [];
    if (shown < spool.count)
      children.push({ kind: "older", group, remaining: spool.count - shown });
    for (let number = from; number < spool.received; number++)
      children.push({ kind: "turn", group, number });
    return children;
  }

  private liveItem(group: LiveGroup): vscode.TreeItem {
    const item = new vscode.TreeItem(group.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `live\n${group.key}`;
    const { spool } = group;
    const dropped = spool.received - spool.count;
    item.description = [
      group.state,
      counted(spool.received, "turn"),
      dropped > 0 ? `the newest ${spool.count} kept` : null,
    ]
      .filter((part) => part !== null)
      .join(" · ");
    item.iconPath = new vscode.ThemeIcon(group.file ? "eye" : "broadcast");
    if (group.file) item.resourceUri = group.file;
    item.contextValue = group.file ? "paletteInspector.followedLog" : "paletteInspector.liveTraces";
    return item;
  }

  private turnItem(node: TurnNode): vscode.TreeItem {
    const kept = node.group.spool.row(node.number);
    // A spool's row counts within its file: the turn's own number is the one a reader knows.
    const row = kept && { ...kept, index: node.number };
    const item = new vscode.TreeItem(
      row ? traceLabel(row) : `${traceNumber(node.number)} · no longer kept`,
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = `live\n${node.group.key}\n#${node.number}`;
    if (!row) return item;
    const where = node.group.file ? `line ${row.line}` : null;
    const time = row.time === null ? null : plain(row.time);
    item.description = [time, where].filter((part) => part !== null).join(" · ");
    // Each turn's own: its number, turn and time before the stages every turn shares.
    item.tooltip = [
      [traceNumber(node.number), row.id === null ? null : plain(row.id), time, where]
        .filter((part) => part !== null)
        .join(" · "),
      ...node.group.spool
        .stagesOf(node.number)
        .map((stage) => `${plain(stage.stage)}: ${stage.action}`),
    ].join("\n");
    item.accessibilityInformation = traceAccessibility(row, where);
    item.iconPath = traceIcon(row);
    item.contextValue = "paletteInspector.liveTurn";
    item.command = openTraceCommand(node);
    return item;
  }

  private problemItem(set: LogSet, problem: LogProblem): vscode.TreeItem {
    const file = set.files[problem.file]!;
    const where = [
      set.files.length > 1 ? plain(baseName(file.path)) : null,
      problem.line === null ? null : `line ${problem.line}`,
    ]
      .filter((part) => part !== null)
      .join(" ");
    // A problem quotes the log: its message is neutralised like any text from it.
    const message = neutralise(problem.message, PROBLEM_CHARS);
    const item = new vscode.TreeItem(`${where ? `${where}: ` : ""}${message}`);
    // A gzip cannot be shown at a line in the editor.
    if (problem.line !== null && !/\.gz$/i.test(file.path))
      item.command = {
        command: "vscode.open",
        title: "Go to line",
        arguments: [
          file,
          { selection: new vscode.Range(problem.line - 1, 0, problem.line - 1, 0) },
        ],
      };
    return item;
  }
}

/** Another trace of the set was found in the same place (a line that holds two values). */
function sharesItsLine(set: LogSet, index: number): boolean {
  const row = set.index.row(index);
  const same = (i: number) => {
    if (i < 0 || i >= set.index.count) return false;
    const other = set.index.row(i);
    return other.file === row.file && other.offset === row.offset;
  };
  return same(index - 1) || same(index + 1);
}

/** A trace's icon: an error, a degraded stage, or a plain trace (logged and live alike). */
function traceIcon(row: { readonly error: boolean; readonly degraded: boolean }): vscode.ThemeIcon {
  if (row.error) return new vscode.ThemeIcon("error", new vscode.ThemeColor("errorForeground"));
  if (row.degraded)
    return new vscode.ThemeIcon("warning", new vscode.ThemeColor("list.warningForeground"));
  return new vscode.ThemeIcon("type-hierarchy");
}

/** What clicking a trace's row does: open it in the panel. */
function openTraceCommand(node: TraceNode): vscode.Command {
  return {
    command: "paletteInspector.openTrace",
    title: "Open Selection Trace",
    arguments: [node],
  };
}
