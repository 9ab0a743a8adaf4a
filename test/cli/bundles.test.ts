/** The built CLI: `dist/cli.js` loads each group of commands from a bundle of its own. */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp.js";
import { cli, workspace } from "./helpers.js";

const LOG_BUNDLES = ["cli.js", "cli-logs.js", "scan-worker.js"];
const built = LOG_BUNDLES.every((file) => existsSync(join("dist", file)));

/** A copy of the bundles that read logs, without the other commands' bundle. */
function logBundlesAlone(): string {
  const dir = tempDir("pi-bundles-");
  for (const file of LOG_BUNDLES) copyFileSync(join("dist", file), join(dir, file));
  return dir;
}

// `npm test` builds first.
describe.skipIf(!built)("the built CLI", () => {
  const logs = workspace({
    "a.log": readFileSync("examples/logs/agent.log", "utf8"),
    "b.log": readFileSync("examples/logs/broken.log", "utf8"),
  });

  it.each([
    [["traces", "a.log", "b.log"]],
    [["traces", "a.log", "b.log", "--json", "--jobs", "2"]],
    [["stats", "a.log", "b.log", "--json"]],
    [["show", "a.log", "b.log", "3"]],
    // A usage error thrown in the logs' bundle is still a message and exit 2, not an internal error.
    [["traces", "a.log", "--jobs", "x"]],
  ])("%j runs from cli.js, cli-logs.js and scan-worker.js alone, as in-process", async (args) => {
    const dir = logBundlesAlone();
    const run = spawnSync(process.execPath, [join(dir, "cli.js"), ...args], {
      cwd: logs,
      encoding: "utf8",
    });
    const expected = await cli(args, { cwd: logs });
    expect({ code: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual(expected);
  });

  it("runs the other commands from cli-tools.js", () => {
    const run = spawnSync(process.execPath, [resolve("dist/cli.js"), "run"], { encoding: "utf8" });
    expect([run.status, run.stderr]).toEqual([
      2,
      "palette-inspector: usage: palette-inspector run FIXTURE [--json]\n",
    ]);
  });
});
