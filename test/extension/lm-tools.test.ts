/** The assistant tools as VS Code language-model tools, against the fake `vscode`. */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { activate } from "../../src/extension/main.js";
import { registerLanguageModelTools } from "../../src/extension/lm-tools.js";
import { TOOLS } from "../../src/tools/tools.js";
import { cli } from "../cli/helpers.js";
import { fake, lm, LanguageModelTextPart, Uri, webviewFake } from "../fakes/vscode.js";
import { swapper } from "../helpers/swapper.js";
import { tempDir } from "../helpers/temp.js";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  contributes: { languageModelTools: Record<string, unknown>[] };
};
const weather = readFileSync("examples/weather-forecast.turn.json", "utf8");
const catalog = readFileSync("examples/tools.catalog.json", "utf8");

/** A workspace folder on disk (logs are read from disk), its fixtures in the fake's files. */
let ws: string;
let registered: { dispose(): unknown }[] = [];
const token = {} as vscode.CancellationToken;

beforeEach(() => {
  fake.reset();
  ws = tempDir("pi-lm-");
  mkdirSync(join(ws, "logs"));
  copyFileSync("examples/logs/agent.log", join(ws, "logs", "agent.log"));
  fake.addWorkspaceFolder(ws);
  // A fixture on disk, where the tools read it, and in the fake's files, where findFiles looks.
  writeFileSync(join(ws, "weather-forecast.turn.json"), weather);
  fake.writeFile(join(ws, "weather-forecast.turn.json"), weather);
  // The catalogue too: on disk where the tools read it, in the fake's files where the editor does.
  writeFileSync(join(ws, "tools.catalog.json"), catalog);
  fake.writeFile(join(ws, "tools.catalog.json"), catalog);
  registered = registerLanguageModelTools();
});
afterEach(() => registered.forEach((item) => item.dispose()));

async function invoke(name: string, input: object): Promise<{ text: string; json: unknown }> {
  const result = await lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  const parts = result.content as LanguageModelTextPart[];
  expect(parts.map((part) => part instanceof LanguageModelTextPart)).toEqual([true, true]);
  return { text: parts[0]!.value, json: JSON.parse(parts[1]!.value) };
}

function prepare(name: string, input: object) {
  return fake.lmTools.get(name)!.prepareInvocation!(
    { input },
    token,
  ) as vscode.PreparedToolInvocation;
}

describe("the language-model tools", () => {
  it("are the MCP tools, contributed in package.json with their names, descriptions and schemas", () => {
    expect(manifest.contributes.languageModelTools).toEqual(
      TOOLS.map((tool) => ({
        name: tool.name,
        displayName: tool.title,
        toolReferenceName: tool.name,
        canBeReferencedInPrompt: true,
        userDescription: tool.description,
        modelDescription: tool.description,
        tags: ["palette-inspector", "symfonic"],
        inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)),
      })),
    );
  });

  it("are registered when the extension activates, each under its contributed name", () => {
    registered.forEach((item) => item.dispose());
    registered = [];
    fake.reset();
    webviewFake.reset();
    fake.addWorkspaceFolder("/ws");
    const context = {
      subscriptions: [] as { dispose(): unknown }[],
      extensionUri: Uri.file("/ext"),
    };
    activate(context as unknown as vscode.ExtensionContext);
    expect([...fake.lmTools.keys()]).toEqual(
      manifest.contributes.languageModelTools.map((tool) => tool.name),
    );
    context.subscriptions.forEach((item) => item.dispose());
    expect(fake.lmTools.size).toBe(0);
  });

  it("answer with the text for the model and the JSON the CLI prints", async () => {
    const { text, json } = await invoke("run_fixture", { path: "weather-forecast.turn.json" });
    expect(text).toMatch(/^final \(2\): get_weather, final_answer\n/);
    const { stdout } = await cli(["run", "examples/weather-forecast.turn.json", "--json"]);
    expect(json).toEqual(JSON.parse(stdout));
  });

  it("run a fixture as its editor shows it, unsaved edits included", async () => {
    const uri = Uri.file(join(ws, "weather-forecast.turn.json"));
    fake.openDocument(uri, weather.replace('"role": "analyst"', '"role": "nobody"'));
    const { json } = await invoke("run_fixture", { path: join(ws, "weather-forecast.turn.json") });
    expect((json as { names: string[] }).names).not.toEqual(["get_weather", "final_answer"]);
  });

  it("read logs under the workspace folders", async () => {
    const { json } = await invoke("list_traces", { logs: ["logs"], limit: 2 });
    const { stdout } = await cli(["traces", "logs", "--json"], { cwd: ws });
    const all = JSON.parse(stdout) as { traces: unknown[] };
    expect((json as { traces: unknown[] }).traces).toEqual(
      all.traces.slice(0, 2).map((entry, i) => ({ trace: i + 1, ...(entry as object) })),
    );
    const shown = await invoke("where_did_tool_go", {
      logs: ["logs/agent.log"],
      trace: 1,
      tool: "sql",
    });
    expect((shown.json as { sentence: string }).sentence).toMatch(/^dropped by `intent`/);
  });

  it("refuse a path outside the workspace folders, a link leading out, and a malformed input", async () => {
    const away = tempDir("pi-lm-away-");
    writeFileSync(join(away, "x.turn.json"), weather);
    symlinkSync(join(away, "x.turn.json"), join(ws, "link.turn.json"));
    for (const path of [join(away, "x.turn.json"), "../x.turn.json", join(ws, "link.turn.json")])
      await expect(invoke("run_fixture", { path })).rejects.toThrow(
        `'${path}' is outside the workspace folders (${ws}); only files under them are read or written`,
      );
    await expect(invoke("run_fixture", { path: 3 })).rejects.toThrow(
      /^run_fixture: path must be string$/,
    );
  });

  it("refuse a fixture that is a FIFO at once, reading it from disk as the MCP server does", async () => {
    execFileSync("mkfifo", [join(ws, "pipe.turn.json")]);
    await expect(invoke("run_fixture", { path: "pipe.turn.json" })).rejects.toThrow(
      "cannot read pipe.turn.json: it is not a regular file (a FIFO, a device or a socket)",
    );
  }, 5_000);

  it("read a catalogue no editor has open from disk, through the checked handle: a FIFO is refused at once", async () => {
    rmSync(join(ws, "tools.catalog.json"));
    execFileSync("mkfifo", [join(ws, "tools.catalog.json")]);
    await expect(invoke("run_fixture", { path: "weather-forecast.turn.json" })).rejects.toThrow(
      "catalogue file './tools.catalog.json' cannot be read: it is not a regular file (a FIFO, a device or a socket)",
    );
    expect(fake.reads).not.toContain(Uri.file(join(ws, "tools.catalog.json")).toString());
  }, 5_000);

  it("read a catalogue open in an editor as the editor shows it, unsaved edits included", async () => {
    const edited = catalog.replace("Current weather", "Edited in the editor");
    fake.openDocument(Uri.file(join(ws, "tools.catalog.json")), edited);
    const { json } = await invoke("run_fixture", { path: "weather-forecast.turn.json" });
    expect(JSON.stringify(json)).toContain("Edited in the editor");
  });

  it("never read the catalogue a swapped link points to outside the workspace folders (300 calls)", async () => {
    const away = tempDir("pi-lm-away-");
    writeFileSync(join(ws, "real.catalog.json"), catalog);
    writeFileSync(join(away, "secret.json"), catalog.replace("Current weather", "SECRET"));
    await swapper(join(ws, "tools.catalog.json"), [
      join(ws, "real.catalog.json"),
      `->${join(away, "secret.json")}`,
    ]);
    let ran = 0;
    for (let i = 0; i < 300; i++) {
      const answer = await invoke("run_fixture", { path: "weather-forecast.turn.json" }).catch(
        (error: Error) => ({ text: error.message, json: null }),
      );
      expect(JSON.stringify(answer)).not.toContain("SECRET");
      if (answer.json !== null) ran++;
    }
    expect([ran > 0, ran < 300]).toEqual([true, true]);
  }, 30_000);

  it("say the fixture's problem with its place and JSON path", async () => {
    writeFileSync(
      join(ws, "bad.turn.json"),
      JSON.stringify({ offered: ["a"], pipeline: [{ kind: "polcy" }] }),
    );
    await expect(invoke("run_fixture", { path: "bad.turn.json" })).rejects.toThrow(
      /bad\.turn\.json:1:\d+: error: .*\(at \$\.pipeline\[0\]\.kind\)/,
    );
  });

  it("say before running what each will do", () => {
    expect(prepare("run_fixture", { path: "a.turn.json" }).invocationMessage).toBe(
      "Running the fixture a.turn.json",
    );
    expect(prepare("list_traces", { logs: ["logs"] }).invocationMessage).toBe(
      "Listing the selection traces in logs",
    );
    expect(
      prepare("what_if", { path: "a.turn.json", edits: { enabled: { intent: false } } })
        .invocationMessage,
    ).toBe("Asking what-if of a.turn.json: stage intent off");
    // Text from the model cannot become a command link in the chat.
    expect(prepare("show_trace", { logs: ["[x](command:evil)"], trace: 1 }).invocationMessage).toBe(
      "Reading trace #1 of ［x］(command:evil)",
    );
    expect(
      prepare("trace_to_fixture", { logs: ["logs"], trace: 1 }).confirmationMessages,
    ).toBeUndefined();
  });

  it("name a trace by the #N a person reads, in the confirmation and in the answer", async () => {
    const input = { logs: ["logs"], trace: 5, out: "replay.turn.json" };
    expect(prepare("trace_to_fixture", input).confirmationMessages?.message).toBe(
      "Write the replay of trace #5 of logs to replay.turn.json? It must be a new file: an existing one is never overwritten.",
    );
    const { text } = await invoke("show_trace", { logs: ["logs"], trace: 5 });
    expect(text.split("\n")[0]).toBe("trace #5, logs/agent.log:19");
  });

  it("name a fixture by its workspace-relative path, as the MCP server names it under its root", async () => {
    const { text, json } = await invoke("where_did_tool_go", {
      path: join(ws, "weather-forecast.turn.json"),
      tool: "search",
    });
    expect((json as { file: string }).file).toBe("weather-forecast.turn.json");
    expect(text.split("\n")[1]).toBe("in weather-forecast.turn.json, at each stage:");
    expect(text).not.toContain("file:");
    const run = await invoke("run_fixture", { path: "weather-forecast.turn.json" });
    expect(run.text).toContain("\nweather-forecast.turn.json — description: fixture text ");
  });

  it("ask before writing a fixture, and write a new file only", async () => {
    const asked = prepare("trace_to_fixture", {
      logs: ["logs"],
      trace: 1,
      out: "replay.turn.json",
    });
    expect(asked.confirmationMessages?.title).toBe("Write a fixture?");
    const { json } = await invoke("trace_to_fixture", {
      logs: ["logs"],
      trace: 1,
      out: "replay.turn.json",
    });
    const written = readFileSync(join(ws, "replay.turn.json"), "utf8");
    expect(JSON.parse(written)).toEqual((json as { fixture: unknown }).fixture);
    await expect(
      invoke("trace_to_fixture", { logs: ["logs"], trace: 1, out: "replay.turn.json" }),
    ).rejects.toThrow("replay.turn.json already exists; it is never overwritten");
  });

  it("read but never write in Restricted Mode", async () => {
    fake.trusted = false;
    const input = { logs: ["logs"], trace: 1, out: "replay.turn.json" };
    expect(prepare("trace_to_fixture", input).confirmationMessages).toBeUndefined();
    expect(prepare("trace_to_fixture", input).invocationMessage).toMatch(
      /not written: Restricted Mode/,
    );
    await expect(invoke("trace_to_fixture", input)).rejects.toThrow(
      /Restricted Mode, where the tools never write/,
    );
    expect(existsSync(join(ws, "replay.turn.json"))).toBe(false);
    expect((await invoke("run_fixture", { path: "weather-forecast.turn.json" })).text).toMatch(
      /^final/,
    );
  });

  it("check the workspace's fixtures when no path is given", async () => {
    const { text, json } = await invoke("check_fixtures", {});
    expect((json as { fixtures: { status: string }[] }).fixtures.map((f) => f.status)).toEqual([
      "passed",
    ]);
    expect(text.split("\n")[0]).toBe("1 passed, 0 failed");
  });

  it("refuse to read anything without a folder open", async () => {
    fake.workspaceFolders.length = 0;
    await expect(invoke("run_fixture", { path: "weather-forecast.turn.json" })).rejects.toThrow(
      "no folder is open: the tools read only files under the workspace folders",
    );
  });
});
