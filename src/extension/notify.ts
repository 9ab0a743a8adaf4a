import * as vscode from "vscode";

/**
 * The only way the extension speaks in notifications and progress titles. VS Code turns
 * `[label](command:…)` there into a link that runs a command, so text read from a workspace file,
 * a log or a debuggee enters only through `notice`, which neutralises every interpolated value;
 * whole problem messages and details go to the "Palette Inspector" log channel instead.
 */
export interface NoticeText {
  readonly text: string;
  readonly brand: "NoticeText";
}

const NAME_LIMIT = 60;
// Controls, line and paragraph separators, and format characters (Unicode Cf: bidi marks and
// controls, U+061C, zero-width spaces and joiners, U+2060, the BOM, tags).
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]+/gu;

/** A short, single-line rendering of hostile text that no renderer can turn into a link. */
export function neutralise(value: unknown, limit = NAME_LIMIT): string {
  const flat = String(value)
    .replace(INVISIBLE, " ")
    .replace(/\s+/g, " ")
    .trim()
    // Square brackets are what make `[label](target)` a link; their full-width forms read the same.
    .replace(/\[/g, "\uff3b")
    .replace(/\]/g, "\uff3d")
    // `$(name)` is an icon in a quick pick or the status bar; after a full-width $ it is text.
    .replace(/\$\(/g, "\uff04(");
  const chars = Array.from(flat);
  if (chars.length <= limit) return flat;
  // Elided in the middle: a path's file name, at its end, is what tells files apart.
  const head = Math.floor((limit - 1) / 3);
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (limit - 1 - head)).join("")}`;
}

/** Hostile text (a name from a log, a debuggee, a workspace path) as a quick pick's label. */
export function pickLabel(value: unknown): string {
  return neutralise(value, 160);
}

/** Fixed wording with neutralised values: `notice\`Cannot read ${name}.\``. */
export function notice(strings: TemplateStringsArray, ...values: unknown[]): NoticeText {
  let text = strings[0]!;
  values.forEach((value, i) => (text += neutralise(value) + strings[i + 1]!));
  return { text, brand: "NoticeText" };
}

let channel: vscode.LogOutputChannel | undefined;

/** The extension's log: where details too long or too hostile for a notification go. */
export function log(): vscode.LogOutputChannel {
  return (channel ??= vscode.window.createOutputChannel("Palette Inspector", { log: true }));
}

/** Disposes the log channel when the extension deactivates. */
export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
}

type Level = "info" | "warning" | "error";
const SHOW = {
  info: (text: string, ...items: string[]) => vscode.window.showInformationMessage(text, ...items),
  warning: (text: string, ...items: string[]) => vscode.window.showWarningMessage(text, ...items),
  error: (text: string, ...items: string[]) => vscode.window.showErrorMessage(text, ...items),
} as const;

/**
 * Shows a notification. `details` (problem messages, file paths, anything long) are written to
 * the log channel, and the notification offers "Show Log" to open it.
 */
export async function notify(
  level: Level,
  message: NoticeText,
  options: { details?: readonly string[]; actions?: readonly string[] } = {},
): Promise<string | undefined> {
  const details = options.details ?? [];
  const logLine = [message.text, ...details].join("\n  ");
  if (level === "error") log().error(logLine);
  else if (level === "warning") log().warn(logLine);
  else log().info(logLine);
  const items = [...(options.actions ?? []), ...(details.length > 0 ? ["Show Log"] : [])];
  const choice = await SHOW[level](`Palette Inspector: ${message.text}`, ...items);
  if (choice === "Show Log") {
    log().show(true);
    return undefined;
  }
  return choice;
}

/** Shows a notification without waiting for the user to dismiss it (a failure to show it is logged). */
export function announce(
  level: Level,
  message: NoticeText,
  options: { details?: readonly string[] } = {},
): void {
  notify(level, message, options).then(undefined, (error: unknown) =>
    log().error(`could not show "${message.text}": ${stackOf(error)}`),
  );
}

/** Reports what went wrong unexpectedly: `what` and the error's message shown, its stack logged. */
export async function reportError(what: NoticeText, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await notify(
    "error",
    { text: `${what.text}: ${neutralise(message)}`, brand: "NoticeText" },
    { details: [stackOf(error)] },
  );
}

/** Work nobody waits for (an event's, a timer's): its failure is reported, never lost. */
export function unawaited(task: PromiseLike<unknown>, what: NoticeText): void {
  task.then(undefined, (error: unknown) =>
    reportError(what, error).then(undefined, () => log().error(`${what.text}: ${stackOf(error)}`)),
  );
}

function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A modal question with fixed wording; `detail` is shown as plain text below it, neutralised. */
export async function ask(
  message: NoticeText,
  detail: readonly string[],
  ...actions: string[]
): Promise<string | undefined> {
  return vscode.window.showWarningMessage(
    message.text,
    { modal: true, detail: detail.map((line) => neutralise(line, 200)).join("\n") },
    ...actions,
  );
}

/**
 * Progress in whole percents of `total` bytes: each said once, the bar filled by the step since
 * the last. Returns, for each count of bytes read, the percent reached.
 */
export function percentProgress(
  report: (message: NoticeText, increment?: number) => void,
  total: number,
): (bytes: number) => number {
  let reported = 0;
  return (bytes) => {
    const percent = total > 0 ? Math.min(100, Math.floor((bytes / total) * 100)) : 100;
    if (percent > reported) {
      report(notice`${percent}%`, percent - reported);
      reported = percent;
    }
    return reported;
  };
}

/** Progress with a fixed title; `report` messages pass through `notice` too. */
export function withProgress<T>(
  title: NoticeText,
  task: (
    report: (message: NoticeText, increment?: number) => void,
    token: vscode.CancellationToken,
  ) => Thenable<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: title.text, cancellable: true },
    (progress, token) =>
      task((message, increment) => progress.report({ message: message.text, increment }), token),
  );
}
