// Test only: the debugpy debugger type (no ms-python offline), launching Debian's debugpy, and a
// command that debugs agent.py with a breakpoint on the line ending in `# pause here`. Recipe: the shared
// note python-debug-e2e.md.
// A VS Code extension without a build step is CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require("vscode");

const PYTHON = "/usr/bin/python3"; // Debian's debugpy exists only for Debian's interpreter

/** Each of Palette Inspector's language-model tools, asked one question about the examples. */
const TOOL_CALLS = [
  ["run_fixture", { path: "weather-forecast.turn.json" }],
  ["check_fixtures", {}],
  ["where_did_tool_go", { path: "weather-forecast.turn.json", tool: "sql" }],
  ["what_if", { path: "weather-forecast.turn.json", edits: { enabled: { intent: false } } }],
  ["list_traces", { logs: ["logs/agent.log"], limit: 3 }],
  ["show_trace", { logs: ["logs/agent.log"], trace: 1 }],
  ["trace_to_fixture", { logs: ["logs/agent.log"], trace: 1 }],
  ["palette_stats", { logs: ["logs"], top: 3 }],
];

/** Invokes every tool and writes what each answered (its text parts, or its error) to lm-tools.result.json. */
async function invokeTools() {
  const [folder] = vscode.workspace.workspaceFolders;
  const results = {};
  for (const [name, input] of TOOL_CALLS) {
    try {
      const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
      results[name] = { parts: result.content.map((part) => part.value) };
    } catch (error) {
      results[name] = { error: String(error && error.message ? error.message : error) };
    }
  }
  const out = vscode.Uri.joinPath(folder.uri, "lm-tools.result.json");
  await vscode.workspace.fs.writeFile(
    out,
    new TextEncoder().encode(JSON.stringify(results, null, 2)),
  );
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand("paletteTest.invokeTools", invokeTools),
    vscode.debug.registerDebugAdapterDescriptorFactory("debugpy", {
      createDebugAdapterDescriptor: () =>
        new vscode.DebugAdapterExecutable(PYTHON, ["-m", "debugpy.adapter"]),
    }),
    vscode.commands.registerCommand("paletteTest.debugAgent", async () => {
      const [program] = await vscode.workspace.findFiles("**/agent.py", "**/node_modules/**", 1);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(program));
      const line = text.split("\n").findIndex((l) => l.trimEnd().endsWith("# pause here"));
      vscode.debug.addBreakpoints([
        new vscode.SourceBreakpoint(new vscode.Location(program, new vscode.Position(line, 0))),
      ]);
      const folder = vscode.workspace.getWorkspaceFolder(program);
      await vscode.debug.startDebugging(folder, {
        type: "debugpy",
        name: "agent",
        request: "launch",
        program: program.fsPath,
        cwd: vscode.Uri.joinPath(program, "..").fsPath,
        console: "internalConsole",
        justMyCode: true,
        python: PYTHON,
      });
    }),
  );
};
