/**
 * The assistant tools (src/tools) as VS Code language-model tools, for Copilot's agent mode and
 * any chat that calls `vscode.lm.invokeTool`. They read only under the workspace folders, a
 * fixture as its editor shows it (unsaved edits included), and in Restricted Mode never write.
 */
import * as vscode from "vscode";
import { FIXTURE_GLOB, SKIPPED_GLOB } from "../core/fixture/files.js";
import type { CatalogReader } from "../core/fixture/load.js";
import type { SourceFile, UnreadableSource } from "../core/fixture/source.js";
import { safeJson } from "../core/words.js";
import { describeWhatIf, type WhatIf } from "../core/whatif.js";
import { readReason } from "../node/log-source.js";
import { InputRefused, RootFiles, Roots } from "../node/roots.js";
import type { ToolFiles } from "../tools/port.js";
import { callTool, inputProblem, TOOLS, type ToolDefinition } from "../tools/tools.js";
import { readSource, workspaceCatalogReader } from "./fixtures.js";
import { neutralise } from "./notify.js";

/** The tools' files: the workspace folders on disk are the roots. */
class WorkspaceFiles implements ToolFiles {
  /** Asked each time: folders come and go while the window is open. */
  private roots(): Roots {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter(
      (folder) => folder.uri.scheme === "file",
    );
    if (folders.length === 0)
      throw new InputRefused(
        "no folder is open: the tools read only files under the workspace folders",
      );
    return new Roots(
      folders.map((folder) => folder.uri.fsPath),
      "the workspace folders",
    );
  }

  /** A fixture's URI by the workspace-relative name the answers give it, for its catalogue's reader. */
  private readonly uris = new Map<string, string>();

  /** Named workspace-relative, as the MCP server names a file under its root. */
  async readFixture(path: string): Promise<SourceFile | UnreadableSource> {
    const roots = this.roots();
    const uri = vscode.Uri.file(roots.resolve(path));
    let source;
    try {
      // As its editor shows it; else the file itself, opened once and checked under the folders.
      source = await readSource(uri, "fixture", roots.list);
    } catch (error) {
      throw new InputRefused(`cannot read ${path}: ${readReason(error)}`);
    }
    const file = vscode.workspace.asRelativePath(uri);
    this.uris.set(file, uri.toString());
    return "text" in source
      ? { file, text: source.text }
      : { file, problems: source.problems.map((problem) => ({ ...problem, file })) };
  }

  /** As a fixture is read: as its editor shows it, else from disk through the checked handle. */
  private readonly catalogs = workspaceCatalogReader(() => this.roots().list);
  readonly readCatalog: CatalogReader = (ref, fixtureFile) =>
    this.catalogs(ref, this.uris.get(fixtureFile) ?? fixtureFile);

  async findFixtures(paths: readonly string[] | undefined): Promise<string[]> {
    const roots = this.roots();
    const folders: string[] = paths === undefined ? [...roots.list] : [];
    const files: string[] = [];
    for (const path of paths ?? []) {
      const target = roots.resolve(path);
      const folder = await vscode.workspace.fs.stat(vscode.Uri.file(target)).then(
        (stat) => (stat.type & vscode.FileType.Directory) !== 0,
        () => false,
      );
      (folder ? folders : files).push(target);
    }
    for (const folder of folders) {
      const pattern = new vscode.RelativePattern(vscode.Uri.file(folder), FIXTURE_GLOB);
      for (const uri of await vscode.workspace.findFiles(pattern, SKIPPED_GLOB))
        if (uri.scheme === "file") files.push(uri.fsPath);
    }
    return [...new Set(files)].sort();
  }

  logInputs(names: readonly string[]) {
    return new RootFiles(this.roots()).logInputs(names);
  }

  async writeNewFile(path: string, text: string): Promise<string> {
    if (!vscode.workspace.isTrusted)
      throw new InputRefused(
        `not written: this workspace is in Restricted Mode, where the tools never write (${path})`,
      );
    // On disk, as the MCP server writes: created exclusively in a folder checked as it was opened.
    const roots = this.roots();
    await new RootFiles(roots).writeNewFile(path, text);
    return vscode.workspace.asRelativePath(vscode.Uri.file(roots.resolve(path)));
  }
}

interface Input {
  path?: string;
  paths?: string[];
  tool?: string;
  logs?: string[];
  trace?: number;
  out?: string;
  edits?: WhatIf;
  against?: string[];
  split_at?: string;
}

/** What the chat shows before a tool runs: what it will read, and for a write, the question. */
function prepared(tool: ToolDefinition, input: Input): vscode.PreparedToolInvocation {
  const n = (value: unknown) => neutralise(value, 120);
  const logs = `${input.trace === undefined ? "" : `trace #${n(input.trace)} of `}${n((input.logs ?? []).join(", "))}`;
  const message: Record<ToolDefinition["name"], string> = {
    run_fixture: `Running the fixture ${n(input.path)}`,
    check_fixtures: `Checking ${input.paths ? n(input.paths.join(", ")) : "every fixture in the workspace"}`,
    where_did_tool_go: `Following ${n(input.tool)} through ${input.path !== undefined ? n(input.path) : logs}`,
    what_if: `Asking what-if of ${n(input.path)}: ${n(input.edits ? describeWhatIf(input.edits) || "no lever moved" : "")}`,
    list_traces: `Listing the selection traces in ${logs}`,
    show_trace: `Reading ${logs}`,
    trace_to_fixture: `Turning ${logs} into a fixture${input.out === undefined ? "" : vscode.workspace.isTrusted ? ` at ${n(input.out)}` : " (not written: Restricted Mode)"}`,
    palette_stats: `Counting palette statistics across ${logs}`,
    compare_stats: `Comparing ${logs} ${input.split_at !== undefined ? `before and after ${n(input.split_at)}` : `with ${n((input.against ?? []).join(", "))}`}`,
  };
  const writes =
    tool.name === "trace_to_fixture" && input.out !== undefined && vscode.workspace.isTrusted;
  return {
    invocationMessage: message[tool.name],
    ...(writes
      ? {
          confirmationMessages: {
            title: "Write a fixture?",
            message: `Write the replay of ${logs} to ${n(input.out)}? It must be a new file: an existing one is never overwritten.`,
          },
        }
      : {}),
  };
}

export function registerLanguageModelTools(): vscode.Disposable[] {
  const files = new WorkspaceFiles();
  return TOOLS.map((tool) =>
    vscode.lm.registerTool<Input>(tool.name, {
      prepareInvocation: (options) => prepared(tool, options.input),
      // A tool's error reaches the model as the error's message.
      invoke: async (options) => {
        const problem = inputProblem(tool.name, options.input);
        if (problem !== null) throw new Error(problem);
        const result = await callTool(tool.name, options.input, files);
        if (result.isError) throw new Error(result.text);
        return new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart(result.text),
          new vscode.LanguageModelTextPart(safeJson(result.structured)),
        ]);
      },
    }),
  );
}
