/** `vscode.lm`: language-model tools. */
import type * as vscode from "vscode";
import { CancellationTokenSource, Disposable, type ImitatesNamespace } from "./core.js";
import { fake } from "./state.js";

export class LanguageModelTextPart implements vscode.LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolResult implements vscode.LanguageModelToolResult {
  constructor(public content: (LanguageModelTextPart | vscode.LanguageModelPromptTsxPart)[]) {}
}

export const lm = {
  /** The last one registered under a name answers, as for commands here. */
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>) {
    fake.lmTools.set(name, tool as vscode.LanguageModelTool<object>);
    return new Disposable(() => fake.lmTools.delete(name));
  },
  /** Invokes a registered tool as a chat would, once the user confirmed what prepareInvocation asked. */
  async invokeTool(
    name: string,
    options: vscode.LanguageModelToolInvocationOptions<object>,
    token: vscode.CancellationToken = new CancellationTokenSource().token,
  ) {
    const tool = fake.lmTools.get(name);
    if (!tool) throw new Error(`no tool named ${name}`);
    const result = await tool.invoke(options, token);
    if (!result) throw new Error(`tool ${name} answered nothing`);
    return result;
  },
} satisfies ImitatesNamespace<typeof vscode.lm, "registerTool" | "invokeTool">;
