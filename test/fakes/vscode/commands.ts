/** `vscode.commands` and `vscode.env` (the clipboard). */
import type * as vscode from "vscode";
import { Disposable, type ImitatesNamespace } from "./core.js";
import { fake } from "./state.js";

export const commands = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own signature
  registerCommand(id: string, handler: (...args: any[]) => unknown) {
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand<T = unknown>(id: string, ...args: unknown[]): Promise<T> {
    return (await fake.commands.get(id)?.(...args)) as T;
  },
} satisfies ImitatesNamespace<typeof vscode.commands, "registerCommand" | "executeCommand">;

export const env = {
  clipboard: {
    async writeText(text: string) {
      fake.clipboard = text;
    },
    async readText() {
      return fake.clipboard;
    },
  },
} satisfies ImitatesNamespace<typeof vscode.env, "clipboard">;
