import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  announce,
  ask,
  disposeLog,
  log,
  neutralise,
  notice,
  pickLabel,
  notify,
  percentProgress,
  unawaited,
  withProgress,
} from "../../src/extension/notify.js";
import { fake, ProgressLocation, window } from "../fakes/vscode.js";

const LINK = "[x](command:workbench.action.openSettings?%22PWNED%22)";

describe("notification text", () => {
  it("breaks the link syntax VS Code renders in notifications", () => {
    const text = notice`Cannot read ${LINK}.`.text;
    expect(text).not.toMatch(/\[[^\]]*\]\(/);
    expect(text).toBe("Cannot read ［x］(command:workbench.action.openSettings?%22PWNED%22).");
  });

  it("removes controls, line breaks and bidi overrides, and shortens long names", () => {
    expect(neutralise("a\u001b]0;title\u0007b\nc\u202ed")).toBe(
      "a ]0;title b c d".replace("]", "］"),
    );
    expect(Array.from(neutralise("x".repeat(500))).length).toBe(60);
    expect(neutralise(`/home/someone/${"x".repeat(500)}/app.log`)).toMatch(
      /^\/home\/some.*…x+\/app\.log$/,
    );
    expect(neutralise("short")).toBe("short");
  });
});

describe("invisible characters and icons", () => {
  it("removes format characters (U+061C, zero-width ones, U+2060, tags) and writes $( so it is no icon", () => {
    expect(neutralise("a\u061cb\u200b\u200dc\u2060d\u{e0001}e")).toBe("a b c d e");
    expect(neutralise("$(zap) x$(y)")).toBe("\uff04(zap) x\uff04(y)");
    expect(notice`Tool ${"$(alert)\u200b"} missing.`.text).toBe("Tool \uff04(alert) missing.");
  });
});

describe("pickLabel", () => {
  it("neutralises a quick pick's label as a notification's, with room for 160 characters", () => {
    const path = `dir/${"x".repeat(150)}/[a](command:y).turn.json`;
    const label = pickLabel(path);
    expect(Array.from(label)).toHaveLength(160);
    expect(label.endsWith("/［a］(command:y).turn.json")).toBe(true);
    expect(pickLabel("$(alert) a.turn.json")).toBe("＄(alert) a.turn.json");
  });
});

describe("neutralise at its edges", () => {
  it("elides a long name at the default limit: 19 characters, the ellipsis, the last 40", () => {
    const name = Array.from({ length: 61 }, (_, i) => String.fromCharCode(0x4e00 + i)).join("");
    const chars = Array.from(name);
    expect(neutralise(name)).toBe(`${chars.slice(0, 19).join("")}…${chars.slice(21).join("")}`);
  });

  it("keeps a name of exactly the limit whole, and elides one longer to exactly the limit", () => {
    const name = "abcdefghij";
    expect(neutralise(name, 10)).toBe(name);
    // A third of the room before the ellipsis, the rest (the end of a path) after it.
    expect(neutralise(`${name}k`, 10)).toBe("abc…fghijk");
    expect(
      neutralise("a\u0000\u001f\u007f\u009fb\u2028\u2029c\u202a\u202ed\u2066\u2069e\ufefff"),
    ).toBe("a b c d e f");
    expect(neutralise("  a \t\n b  ")).toBe("a b");
    expect(neutralise(42)).toBe("42");
    expect(notice`${1} and ${"[2]"}.`.text).toBe("1 and ［2］.");
  });
});

describe("notify, ask and withProgress", () => {
  beforeEach(() => {
    disposeLog();
    fake.reset();
  });

  it("logs each notification at its own level and shows it with the extension's name", async () => {
    await notify("info", notice`one`);
    await notify("warning", notice`two`);
    await notify("error", notice`three`);
    expect(fake.logLines.map((line) => [line.channel, line.level, line.text])).toEqual([
      ["Palette Inspector", "info", "one"],
      ["Palette Inspector", "warn", "two"],
      ["Palette Inspector", "error", "three"],
    ]);
    expect(fake.shown).toEqual([
      { kind: "info", message: "Palette Inspector: one" },
      { kind: "warning", message: "Palette Inspector: two" },
      { kind: "error", message: "Palette Inspector: three" },
    ]);
  });

  it("puts details in the log and offers Show Log, which opens the log without taking focus", async () => {
    fake.answers.message.push("Show Log", "Retry", undefined);
    const details = { details: ["first detail", "second"], actions: ["Retry"] };
    expect(await notify("error", notice`failed`, details)).toBeUndefined();
    expect(fake.logLines.at(-1)!.text).toBe("failed\n  first detail\n  second");
    expect(fake.shownOutputs).toEqual([{ name: "Palette Inspector", preserveFocus: true }]);
    expect(await notify("error", notice`again`, details)).toBe("Retry");
    expect(await notify("info", notice`plain`, { actions: ["Retry"] })).toBeUndefined();
    expect(fake.shownOutputs).toHaveLength(1);
  });

  it("offers no Show Log, and asks nothing, when there are no details or actions", async () => {
    fake.answers.message.push("Show Log");
    expect(await notify("warning", notice`bare`, { details: [] })).toBeUndefined();
    // The queued answer was not taken: the notification offered no button.
    expect(fake.answers.message).toEqual(["Show Log"]);
  });

  it("asks a modal question whose detail lines are neutralised and kept to 200 characters", async () => {
    fake.answers.message.push("Replace");
    const long = "y".repeat(300);
    expect(await ask(notice`Replace it?`, ["[a](command:x)", long], "Replace")).toBe("Replace");
    const [shown] = fake.shown;
    expect(shown).toMatchObject({ kind: "warning", message: "Replace it?", modal: true });
    const [first, second] = shown!.detail!.split("\n");
    expect(first).toBe("［a］(command:x)");
    expect(Array.from(second!)).toHaveLength(200);
  });

  it("shows cancellable progress in a notification, with a fixed title and neutralised messages", async () => {
    const result = await withProgress(notice`Reading ${"[x](y)"}`, async (report, token) => {
      report(notice`step ${1}`, 50);
      return token.isCancellationRequested ? "cancelled" : "done";
    });
    expect(result).toBe("done");
    expect(fake.progress).toMatchObject([
      {
        title: "Reading ［x］(y)",
        cancellable: true,
        location: ProgressLocation.Notification,
        messages: ["step 1"],
      },
    ]);
  });

  it("makes one log channel, and a fresh one after the old is disposed", () => {
    const first = log();
    expect(log()).toBe(first);
    disposeLog();
    disposeLog();
    expect(fake.disposedOutputs).toEqual(["Palette Inspector"]);
    expect(log()).not.toBe(first);
  });
});

describe("the lint rule that keeps notifications in notify.ts", () => {
  const lint = async (filePath: string, code: string) => {
    const { ESLint } = await import("eslint");
    const [result] = await new ESLint().lintText(code, { filePath });
    return result!.messages.filter((m) => m.ruleId === "no-restricted-properties").length;
  };
  const RAW = [
    'import * as vscode from "vscode";',
    'void vscode.window.showInformationMessage("a");',
    'void vscode.window.showWarningMessage("a");',
    'void vscode.window.showErrorMessage("a");',
    "void vscode.window.withProgress({ location: 15 }, async () => {});",
    "const { showErrorMessage } = vscode.window;",
    "void showErrorMessage;",
  ].join("\n");

  it("forbids the raw window APIs anywhere else in src", { timeout: 60_000 }, async () => {
    // A file of the project: type-aware rules parse only those.
    expect(await lint("src/extension/panel/html.ts", RAW)).toBe(5);
    expect(await lint("src/extension/notify.ts", RAW)).toBe(0);
  });
});

describe("work nobody awaits", () => {
  beforeEach(() => {
    fake.reset();
    disposeLog();
  });
  afterEach(() => vi.restoreAllMocks());

  it("reports a rejection: what failed and its message shown, neutralised, and its stack logged", async () => {
    unawaited(
      Promise.reject(new Error("gone [x](command:y)")),
      notice`reading ${"a.turn.json"} failed`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.shown.map((shown) => shown.message)).toEqual([
      "Palette Inspector: reading a.turn.json failed: gone ［x］(command:y)",
    ]);
    expect(fake.logLines.find((line) => line.level === "error")?.text).toContain(
      "Error: gone [x](command:y)\n    at ",
    );
  });

  it("says nothing when the work succeeds", async () => {
    unawaited(Promise.resolve(1), notice`reading failed`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.shown).toEqual([]);
  });

  it("logs work whose failure could not be shown either", async () => {
    vi.spyOn(window, "showErrorMessage").mockRejectedValue(new Error("window closed"));
    unawaited(Promise.reject(new Error("disk gone")), notice`saving failed`);
    await vi.waitFor(() =>
      expect(fake.logLines.filter((line) => line.level === "error")).toHaveLength(2),
    );
    expect(fake.logLines.at(-1)?.text).toMatch(/^saving failed: Error: disk gone\n {4}at /);
  });

  it("logs a notification announce could not show, as an error", async () => {
    vi.spyOn(window, "showInformationMessage").mockRejectedValue(new Error("window closed"));
    announce("info", notice`done.`);
    await vi.waitFor(() => expect(fake.logLines.at(-1)?.text).toMatch(/^could not show/));
    expect(fake.logLines.at(-1)).toMatchObject({
      level: "error",
      text: expect.stringMatching(/^could not show "done\.": Error: window closed\n/),
    });
  });

  it("announce shows a notification and returns before the user answers it", () => {
    announce("info", notice`done.`);
    expect(fake.shown).toEqual([{ kind: "info", message: "Palette Inspector: done." }]);
  });
});

describe("percentProgress", () => {
  it("says each whole percent once, filling the bar by the step since the last", () => {
    const said: [string, number | undefined][] = [];
    const at = percentProgress((message, increment) => said.push([message.text, increment]), 200);
    expect(at(1)).toBe(0);
    expect(said).toEqual([]);
    expect(at(2)).toBe(1);
    expect(at(3)).toBe(1);
    expect(at(101)).toBe(50);
    expect(at(400)).toBe(100);
    expect(said).toEqual([
      ["1%", 1],
      ["50%", 49],
      ["100%", 50],
    ]);
  });

  it("is done at once when there is nothing to read", () => {
    const said: [string, number | undefined][] = [];
    expect(
      percentProgress((message, increment) => said.push([message.text, increment]), 0)(0),
    ).toBe(100);
    expect(said).toEqual([["100%", 100]]);
  });
});
