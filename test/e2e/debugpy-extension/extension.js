// Test only: the debugpy debugger type (no ms-python offline), launching Debian's debugpy, and a
// command that debugs agent.py with a breakpoint on the line ending in `# pause here`. Recipe: the shared
// note python-debug-e2e.md.
// A VS Code extension without a build step is CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require("vscode");

const PYTHON = "/usr/bin/python3"; // Debian's debugpy exists only for Debian's interpreter

exports.activate = (context) => {
  context.subscriptions.push(
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
