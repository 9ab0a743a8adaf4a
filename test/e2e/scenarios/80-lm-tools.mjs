// The language-model tools in real VS Code: the test-only extension calls vscode.lm.invokeTool on
// each tool and writes what it got. If VS Code refuses invokeTool without a chat model, that
// refusal is what the result file shows, and the scenario says so (the host tests cover the tools).
import { readFile } from "node:fs/promises";
import path from "node:path";

export const name = "language-model tools answer through vscode.lm.invokeTool";
export const timeoutMs = 180_000;

const TOOLS = [
  "run_fixture",
  "check_fixtures",
  "where_did_tool_go",
  "what_if",
  "list_traces",
  "show_trace",
  "trace_to_fixture",
  "palette_stats",
];

export async function run({ runCommand, hasCommand, workspace, assert, log }) {
  // The test extension's commands join the palette a moment after the workbench is up.
  assert.ok(
    await hasCommand("Palette Test: Invoke Language-Model Tools", { timeout: 30_000 }),
    "the test-only extension is loaded",
  );
  await runCommand("Palette Test: Invoke Language-Model Tools", { timeout: 60_000 });
  const file = path.join(workspace, "lm-tools.result.json");
  let results;
  for (let waited = 0; !results && waited < 90_000; waited += 500) {
    results = await readFile(file, "utf8").then(JSON.parse, () => undefined);
    if (!results) await new Promise((done) => setTimeout(done, 500));
  }
  assert.ok(results, "the test extension wrote lm-tools.result.json");
  assert.deepEqual(Object.keys(results), TOOLS);
  const refused = TOOLS.filter((tool) => results[tool].error);
  if (refused.length === TOOLS.length && /model|chat|token/i.test(results.run_fixture.error)) {
    log(`NOTE: VS Code refused invokeTool without a chat model: ${results.run_fixture.error}`);
    return;
  }
  assert.deepEqual(refused, [], `every tool answered: ${JSON.stringify(results)}`);
  const text = (tool) => results[tool].parts[0];
  const json = (tool) => JSON.parse(results[tool].parts[1]);
  assert.match(text("run_fixture"), /^final \(2\): get_weather, final_answer/);
  assert.deepEqual(json("run_fixture").names, ["get_weather", "final_answer"]);
  assert.ok(json("check_fixtures").passed > 0);
  assert.match(json("where_did_tool_go").sentence, /^dropped by `intent`/);
  // Named workspace-relative, as the MCP server names a file under its root: not a file:// URI.
  assert.equal(json("where_did_tool_go").file, "weather-forecast.turn.json");
  assert.equal(json("what_if").comparison.changed, true);
  assert.equal(json("list_traces").traces.length, 3);
  assert.ok(Array.isArray(json("show_trace").trace));
  assert.equal(json("trace_to_fixture").written, null);
  assert.ok(json("palette_stats").tools.length <= 3);
}
