import { describe, expect, it } from "vitest";
import { neutralise, notice } from "../../src/extension/notify.js";

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
    expect(await lint("src/extension/panel/new-thing.ts", RAW)).toBe(5);
    expect(await lint("src/extension/notify.ts", RAW)).toBe(0);
  });
});
