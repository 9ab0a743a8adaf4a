/**
 * The MCP server against the CLI it wraps: a `run_fixture` round trip over stdio against the same
 * run in process, and the server's start (spawn to initialize result) against `--version`.
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { safeJson } from "../src/core/words.js";
import { reportToJson } from "../src/core/report-json.js";
import { runFixtureFile } from "../src/cli/fixture-run.js";
import { fmt, load, median, timed, verdict } from "./measure.js";

const CLI = "dist/cli.js";
const FIXTURE = "examples/weather-forecast.turn.json";
const RUNS = 61;
const STARTS = 7;

/** As many runs again before timing: the server's JIT warms up as the in-process run's does. */
async function medianOf(runs: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < runs; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timed(run));
  return median(times);
}

function connect(): { client: Client; ready: Promise<void> } {
  const client = new Client({ name: "bench", version: "1" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"] });
  return { client, ready: client.connect(transport) };
}

export async function benchMcp(): Promise<string[]> {
  const inProcess = await medianOf(RUNS, async () => {
    const outcome = await runFixtureFile(FIXTURE);
    if (outcome.status === "invalid") throw new Error(`${FIXTURE} is invalid`);
    safeJson(reportToJson(outcome.report), 2);
  });
  const { client, ready } = connect();
  await ready;
  // The constant: a round trip that does nothing, what any request over stdio costs.
  const ping = await medianOf(RUNS, () => client.ping());
  const roundTrip = await medianOf(RUNS, async () => {
    const result = await client.callTool({ name: "run_fixture", arguments: { path: FIXTURE } });
    if (result.isError) throw new Error(`run_fixture failed on ${FIXTURE}`);
  });
  await client.close();

  const start = await medianOf(STARTS, async () => {
    const started = connect();
    await started.ready;
    await started.client.close();
  });
  const version = await medianOf(
    STARTS,
    () =>
      new Promise<void>((done, fail) =>
        spawn(process.execPath, [CLI, "--version"], { stdio: "ignore" }).on("exit", (code) =>
          code === 0 ? done() : fail(new Error(`--version exited ${code}`)),
        ),
      ),
  );
  const goal = 2 * inProcess + ping;
  return [
    `MCP run_fixture round trip (${FIXTURE}): ${fmt(roundTrip)}; in process ${fmt(inProcess)}, a ping round trip ${fmt(ping)} (the constant): goal ≤ 2 × ${fmt(inProcess)} + ${fmt(ping)} = ${fmt(goal)} ${roundTrip <= goal ? "ok" : "MISSED"}`,
    `MCP server start (spawn to initialize result): ${fmt(start)} against --version ${fmt(version)}: ${verdict(start / version, 2, true)} (${load()})`,
  ];
}
